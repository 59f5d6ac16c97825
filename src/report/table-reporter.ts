import { join } from 'node:path';
import type { RowResult, RunSummary } from '../experiment/types.js';
import { formatCompareTable } from './compare/format-compare-table.js';
import { formatEvalCell } from './format-eval-cell.js';
import { conversationNote } from './conversation-note.js';
import { formatSummary } from './format-summary.js';
import { formatValue } from './format-value.js';
import { fitTable, leftOutNote, type FitColumn } from './fit-table.js';
import { renderBlocks } from './render-blocks.js';
import { renderTable, type CellStyle } from './render-table.js';
import { createPalette, type Palette } from './palette.js';
import { LARGE_RUN } from './large-run.js';
import { rowLabel } from './row-label.js';
import { shortenEvalCell } from './shorten-cells.js';
import { truncate } from './truncate.js';
import { wrapWords } from './wrap-words.js';
import type { OutputStream, Reporter, ReporterOptions, RunInfo } from './types.js';

const cell = (text: string, max: number): string => truncate(text.replace(/\r\n|[\r\n\t]/g, ' '), max);

function rowCells(row: RowResult, evalNames: readonly string[], withRepeat: boolean, max: number): string[] {
  const note = conversationNote(row);
  const failed = row.error !== undefined ? `${row.timedOut ? 'TIMED OUT' : 'ERROR'}: ${row.error}` : undefined;
  // The note leads a conversation's last reply, so a cut cell still shows it; an error stays first (its colour).
  const result = failed !== undefined ? (note === undefined ? failed : `${failed} ${note}`) : note === undefined ? formatValue(row.output) : `${note} ${formatValue(row.output)}`;
  const expected = row.expectedOutput === undefined ? 'N/A' : formatValue(row.expectedOutput);
  return [
    rowLabel(row, withRepeat),
    cell(formatValue(row.input), max),
    cell(result, max),
    cell(expected, max),
    ...evalNames.map((name) => cell(formatEvalCell(row.evals[name]), max)),
  ];
}

/** Column 2 is the output (`ERROR: …` when the row failed); from column 4 on, one per eval. */
function cellStyle(palette: Palette): CellStyle {
  return (text, column, whole) => {
    if (column === 2 && whole.startsWith('ERROR: ')) return palette.error(text);
    if (column < 4) return text;
    if (whole.startsWith('PASS')) return palette.pass(text);
    if (whole.startsWith('FAIL')) return palette.fail(text);
    if (whole.startsWith('ERROR')) return palette.error(text);
    if (whole.startsWith('SKIP')) return palette.dim(text);
    return text;
  };
}


/** A row to show in a large run's table: it errored, or an eval failed or errored. */
const notPassing = (row: RowResult): boolean =>
  row.error !== undefined || Object.values(row.evals).some((e) => e.error !== undefined || e.passed === false);

/**
 * How the results table gives way to a narrow terminal: inputs and outputs are cut first, then
 * eval reasons (never the verdict or the eval's name), then Expected Output and Input are left
 * out; narrower still, the caller shows one block per row.
 */
function tableColumns(evalNames: readonly string[]): FitColumn[] {
  return [
    { header: '#' },
    { header: 'Input', shrink: 'cut', drop: 2 },
    { header: 'AI Result', shrink: 'cut' },
    { header: 'Expected Output', shrink: 'cut', drop: 1 },
    ...evalNames.map((name): FitColumn => ({ header: name, shrink: (text, size) => shortenEvalCell(text, size) })),
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
  const width = options.width !== undefined && options.width > 0 ? options.width : undefined;
  const palette = createPalette(options.color === true);
  const style = cellStyle(palette);
  let seen = 0;
  let failing = 0;
  let withRepeat = false;
  const extraEvals = new Set<string>();

  return {
    onRowEnd(row) {
      seen += 1;
      if (notPassing(row)) failing += 1;
      if (row.repeat > 0) withRepeat = true;
      for (const name in row.evals) extraEvals.add(name);
    },
    async onRunEnd(summary: RunSummary, info: RunInfo, allRows) {
      // A large run shows what needs a look: its failed and errored rows, the first LARGE_RUN of them.
      const large = options.allRows !== true && seen > (options.largeRun ?? LARGE_RUN);
      const limit = large ? Math.min(cap, LARGE_RUN) : cap;
      const kept: RowResult[] = [];
      if (limit > 0 && (!large || failing > 0)) {
        for await (const row of allRows()) {
          if (large && !notPassing(row)) continue;
          kept.push(row);
          if (kept.length >= limit) break;
        }
      }
      const evalNames = [...info.evalNames, ...[...extraEvals].filter((name) => !info.evalNames.includes(name))];
      const lines: string[] = [];
      if (seen === 0) {
        lines.push('No rows were run.');
      } else if (large && kept.length === 0) {
        lines.push(...wrapWords(`All ${seen.toLocaleString('en-US')} rows passed; every row: --all-rows, or -o report.html.`, width ?? 0));
      } else {
        const headers = ['#', 'Input', 'AI Result', 'Expected Output', ...evalNames];
        const rows = kept.map((row) => rowCells(row, evalNames, withRepeat, max));
        const fitted = width === undefined ? undefined : fitTable(tableColumns(evalNames), rows, width);
        if (width === undefined || fitted) {
          const shownStyle: CellStyle = fitted ? (text, column, whole) => style(text, fitted.kept[column] ?? column, whole) : style;
          lines.push(renderTable(fitted?.headers ?? headers, fitted?.rows ?? rows, shownStyle, palette.bold));
          lines.push(...leftOutNote(fitted, width, '-o report.html'));
        } else {
          // Too narrow for the columns even cut down: one block per row reads better than a
          // table of `…` cells or one that wraps every line.
          lines.push(renderBlocks(headers, rows, width, style));
        }
        const omitted = seen - kept.length;
        if (large) {
          const more = failing - kept.length;
          const text =
            `${kept.length.toLocaleString('en-US')} of ${seen.toLocaleString('en-US')} rows shown: the failed and errored ones` +
            `${more > 0 ? ` (${more.toLocaleString('en-US')} more not shown)` : ''}; every row: --all-rows, or -o report.html.`;
          lines.push(...wrapWords(text, width ?? 0));
        } else if (omitted > 0) {
          lines.push(
            `… ${omitted.toLocaleString('en-US')} more rows not shown (first ${kept.length.toLocaleString('en-US')} ` +
              `of ${seen.toLocaleString('en-US')}); full results: ${join(info.runDir, 'results.jsonl')}`,
          );
        }
      }
      lines.push('', ...formatSummary(summary, info, { ...(width === undefined ? {} : { width }), palette }));
      if (info.comparison) lines.push('', formatCompareTable(info.comparison, { truncate: max, ...(width === undefined ? {} : { width }) }).trimEnd());
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
