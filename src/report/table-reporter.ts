import { join } from 'node:path';
import type { RowResult, RunSummary } from '../experiment/types.js';
import { formatCompareTable } from './compare/format-compare-table.js';
import { formatEvalCell } from './format-eval-cell.js';
import { formatSummary } from './format-summary.js';
import { formatValue } from './format-value.js';
import { fitColumns } from './fit-columns.js';
import { renderTable } from './render-table.js';
import { rowLabel } from './row-label.js';
import { truncate } from './truncate.js';
import type { OutputStream, Reporter, ReporterOptions, RunInfo } from './types.js';

const cell = (text: string, max: number): string => truncate(text.replace(/\r\n|[\r\n\t]/g, ' '), max);

function rowCells(row: RowResult, evalNames: readonly string[], withRepeat: boolean, max: number): string[] {
  const result = row.error !== undefined ? `${row.timedOut ? 'TIMED OUT' : 'ERROR'}: ${row.error}` : formatValue(row.output);
  const expected = row.expectedOutput === undefined ? 'N/A' : formatValue(row.expectedOutput);
  return [
    rowLabel(row, withRepeat),
    cell(formatValue(row.input), max),
    cell(result, max),
    cell(expected, max),
    ...evalNames.map((name) => cell(formatEvalCell(row.evals[name]), max)),
  ];
}

/**
 * The AgentMark-style results table, then the summary. Its rows are the first `maxTableRows`
 * in dataset order, read back from the run's results file at the end; the rest are counted,
 * so a run of a million rows holds none of them for a table nobody reads whole.
 */
export function createTableReporter(out: OutputStream, options: ReporterOptions = {}): Reporter {
  const max = options.truncate ?? 200;
  const cap = Math.max(0, options.maxTableRows ?? 1000);
  let seen = 0;
  let withRepeat = false;
  const extraEvals = new Set<string>();

  return {
    onRowEnd(row) {
      seen += 1;
      if (row.repeat > 0) withRepeat = true;
      for (const name in row.evals) extraEvals.add(name);
    },
    async onRunEnd(summary: RunSummary, info: RunInfo, allRows) {
      const kept: RowResult[] = [];
      if (cap > 0) {
        for await (const row of allRows()) {
          kept.push(row);
          if (kept.length >= cap) break;
        }
      }
      const evalNames = [...info.evalNames, ...[...extraEvals].filter((name) => !info.evalNames.includes(name))];
      const lines: string[] = [];
      if (seen === 0) {
        lines.push('No rows were run.');
      } else {
        const headers = ['#', 'Input', 'AI Result', 'Expected Output', ...evalNames];
        const rows = kept.map((row) => rowCells(row, evalNames, withRepeat, max));
        if (options.width !== undefined && options.width > 0) {
          const [fittedHeaders = headers, ...fittedRows] = fitColumns(headers, rows, options.width);
          lines.push(renderTable(fittedHeaders, fittedRows));
        } else {
          lines.push(renderTable(headers, rows));
        }
        const omitted = seen - kept.length;
        if (omitted > 0) {
          lines.push(
            `… ${omitted.toLocaleString('en-US')} more rows not shown (first ${kept.length.toLocaleString('en-US')} ` +
              `of ${seen.toLocaleString('en-US')}); full results: ${join(info.runDir, 'results.jsonl')}`,
          );
        }
      }
      lines.push('', ...formatSummary(summary, info));
      if (info.comparison) lines.push('', formatCompareTable(info.comparison, { truncate: max }).trimEnd());
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
