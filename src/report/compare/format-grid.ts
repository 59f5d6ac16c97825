import type { GridResult } from '../../compare/index.js';
import { fitColumns } from '../fit-columns.js';
import { renderTable } from '../render-table.js';
import { truncate } from '../truncate.js';
import { cellFacts, cellOutput, gridCaption, headLines } from './grid-cells.js';

const oneLine = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '').replace(/\s+/g, ' ');

export interface GridTableOptions {
  /** Cut each output to n characters (0: never). @default 200 */
  truncate?: number;
  /** Terminal width to fit; undefined: no fitting. */
  width?: number;
  /** Print each head's line of statistics above the grid. @default true */
  statistics?: boolean;
}

/** The grid for a terminal: the heads' statistics, then one row per dataset row, one column per run. */
export function formatGridTable(grid: GridResult, options: GridTableOptions = {}): string {
  const max = options.truncate ?? 200;
  const headers = ['#', 'Input', ...grid.runs.map((r) => r.label)];
  const rows = grid.rows.map((row) => [
    String(row.index),
    truncate(oneLine(row.input), max),
    ...row.cells.map((cell) => [truncate(cellOutput(cell), max), ...cellFacts(cell)].join(' · ')),
  ]);
  const lines = [
    `GRID: ${grid.runs.map((r, i) => `${r.label} (${r.id})${i === 0 ? ' [base]' : ''}`).join(', ')}`,
    ...(options.statistics === false ? [] : [...headLines(grid), '']),
    gridCaption(grid),
  ];
  if (rows.length > 0) {
    const fitted = options.width === undefined ? [headers, ...rows] : fitColumns(headers, rows, options.width);
    const [h = headers, ...body] = fitted ?? [headers, ...rows.map((cells) => cells.map((cell) => truncate(cell, 12)))];
    lines.push(renderTable(h, body));
  } else lines.push('No rows to show.');
  if (grid.omitted > 0) lines.push(`… ${grid.omitted} more rows not shown`);
  return `${lines.join('\n')}\n`;
}

const mdCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The grid for a pull-request comment: the heads' statistics, the rows (as many as kept), a count of the rest. */
export function formatGridMarkdown(grid: GridResult, options: { truncate?: number } = {}): string {
  const max = options.truncate ?? 200;
  const lines = [
    `### Results grid: ${grid.runs.map((r) => `${mdCell(r.label)} \`${r.id}\``).join(' · ')}`,
    '',
    ...headLines(grid).map((line) => `- ${mdCell(line)}`),
    '',
    `${gridCaption(grid)}.`,
    '',
  ];
  if (grid.rows.length > 0) {
    lines.push(`| # | Input | ${grid.runs.map((r) => mdCell(r.label)).join(' | ')} |`, `|---|---|${grid.runs.map(() => '---|').join('')}`);
    for (const row of grid.rows) {
      const cells = row.cells.map((cell) => mdCell([truncate(cellOutput(cell), max), ...cellFacts(cell)].join(' · ')));
      lines.push(`| ${row.index} | ${mdCell(truncate(oneLine(row.input), max))} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  if (grid.omitted > 0) lines.push(`… and ${grid.omitted} more rows not shown.`, '');
  return `${lines.join('\n')}`;
}
