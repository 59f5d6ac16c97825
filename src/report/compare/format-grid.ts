import type { GridResult } from '../../compare/index.js';
import { fitTable, leftOutNote, type FitColumn } from '../fit-table.js';
import { fitProse } from '../fit-prose.js';
import { renderTable } from '../render-table.js';
import { cutAtWord } from '../shorten-cells.js';
import { truncate } from '../truncate.js';
import { cellChips, cellFacts, cellOutput, gridCaption, headLines, transcriptNote } from './grid-cells.js';

const oneLine = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '').replace(/\s+/g, ' ');

/**
 * `output · chips · timings` in `size` characters: the timings left out before the output is cut
 * (the output leads the cell), then the output cut at a word with the timings, then without them,
 * then the output left out.
 */
function shortenGridCell(output: string, facts: readonly string[], chips: readonly string[], size: number, lastResort: boolean): string {
  const fit = (tail: readonly string[]): string | undefined => {
    const rest = tail.join(' · ');
    const cut = cutAtWord(output, size - Array.from(rest).length - 3);
    return cut === undefined || output === '' ? undefined : `${cut} · ${rest}`;
  };
  const whole = chips.join(' · ');
  if (lastResort && chips.length > 0 && Array.from(whole).length > size) return shortChips(chips, size);
  const withChips = output === '' ? undefined : `${output} · ${whole}`;
  if (chips.length > 0 && withChips !== undefined && Array.from(withChips).length <= size) return withChips;
  return fit(facts) ?? fit(chips) ?? (chips.length > 0 ? whole : facts.join(' · '));
}

/**
 * The chips with their eval names cut alike (`exact_i… PASS`), never their verdicts: the last
 * resort when three runs' verdicts side by side do not fit the terminal whole.
 */
function shortChips(chips: readonly string[], size: number): string {
  const parts = chips.map((chip) => {
    const space = chip.lastIndexOf(' ');
    // A conversation's `[4t stop]` is all verdict.
    return space <= 0 || chip.startsWith('[') ? { name: '', verdict: chip } : { name: chip.slice(0, space), verdict: chip.slice(space + 1) };
  });
  const fixed = parts.reduce((sum, p) => sum + Array.from(p.verdict).length + 1, 0) + 3 * (parts.length - 1);
  const room = Math.max(4, Math.floor((size - fixed) / parts.length));
  return parts.map((p) => (p.name === '' ? p.verdict : `${truncate(p.name, room)} ${p.verdict}`)).join(' · ');
}

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
  const outputs = grid.rows.map((row) => row.cells.map((cell) => truncate(cellOutput(cell), max)));
  const facts = grid.rows.map((row) => row.cells.map((cell) => cellFacts(cell)));
  const chips = grid.rows.map((row) => row.cells.map((cell) => cellChips(cell)));
  const rows = grid.rows.map((row, r) => [String(row.index), truncate(oneLine(row.input), max), ...row.cells.map((_, i) => [outputs[r]?.[i] ?? '', ...(facts[r]?.[i] ?? [])].join(' · '))]);
  // A run's cell gives way by its output; its chips (the verdicts) and timings stay, then the
  // timings go. The run labels (headers) are cut like text, the Input column goes first.
  const columns: FitColumn[] = [
    { header: '#' },
    { header: 'Input', shrink: 'cut', drop: 1 },
    ...grid.runs.map((run, i): FitColumn => ({ header: run.label, cutHeader: true, shrink: (_, size, r, lastResort) => shortenGridCell(outputs[r]?.[i] ?? '', facts[r]?.[i] ?? [], chips[r]?.[i] ?? [], size, lastResort) })),
  ];
  const lines = [
    `GRID: ${grid.runs.map((r, i) => `${r.label} (${r.id})${i === 0 ? ' [base]' : ''}`).join(', ')}`,
    ...(options.statistics === false ? [] : [...headLines(grid), '']),
    gridCaption(grid),
  ];
  if (rows.length > 0) {
    const fitted = options.width === undefined ? undefined : fitTable(columns, rows, options.width, { narrowest: true });
    lines.push(renderTable(fitted?.headers ?? headers, fitted?.rows ?? rows));
    lines.push(...leftOutNote(fitted, options.width, '-o grid.html'));
  } else lines.push('No rows to show.');
  if (grid.omitted > 0) lines.push(`… ${grid.omitted} more rows not shown`);
  const transcripts = transcriptNote(grid);
  if (transcripts !== undefined) lines.push(transcripts);
  return `${fitProse(lines.join('\n'), options.width)}\n`;
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
  const transcripts = transcriptNote(grid);
  if (transcripts !== undefined) lines.push(`${transcripts}.`, '');
  return `${lines.join('\n')}`;
}
