import { join } from 'node:path';
import type { RowResult, RunSummary } from '../experiment/types.js';
import { formatEvalCell } from './format-eval-cell.js';
import { formatSummary } from './format-summary.js';
import { formatValue } from './format-value.js';
import { fitColumns } from './fit-columns.js';
import { renderTable } from './render-table.js';
import { compareRows, rowLabel } from './sort-rows.js';
import { truncate } from './truncate.js';
import type { OutputStream, Reporter, ReporterOptions, RunInfo } from './types.js';

const cell = (text: string, max: number): string => truncate(text.replace(/\r\n|[\r\n\t]/g, ' '), max);

function rowCells(row: RowResult, evalNames: readonly string[], withRepeat: boolean, max: number): string[] {
  const result = row.error !== undefined ? `ERROR: ${row.error}` : formatValue(row.output);
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
 * The AgentMark-style results table, then the summary. Rows are held until the end so they
 * print in dataset order; only the first `maxTableRows` are kept, so a run of a million rows
 * does not hold a million rows in memory for a table nobody reads.
 */
export function createTableReporter(out: OutputStream, options: ReporterOptions = {}): Reporter {
  const max = options.truncate ?? 200;
  const cap = Math.max(0, options.maxTableRows ?? 1000);
  let kept: RowResult[] = [];
  let seen = 0;
  let withRepeat = false;
  const extraEvals = new Set<string>();

  const trim = (): void => {
    kept.sort(compareRows);
    kept = kept.slice(0, cap);
  };

  return {
    onRowEnd(row) {
      seen += 1;
      if (row.repeat > 0) withRepeat = true;
      for (const name of Object.keys(row.evals)) extraEvals.add(name);
      kept.push(row);
      // Sorting every 2×cap rows keeps memory bounded at an amortised O(log cap) per row.
      if (kept.length >= 2 * cap + 1) trim();
    },
    onRunEnd(summary: RunSummary, info: RunInfo) {
      trim();
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
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
