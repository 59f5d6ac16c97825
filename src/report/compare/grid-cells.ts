import type { GridCell, GridEval, GridResult } from '../../compare/index.js';
import { formatCost } from '../format-cost.js';
import { formatDuration } from '../format-duration.js';
import { turnsNote } from '../conversation-note.js';
import { signedPoints } from './format-numbers.js';

/** An eval's chip: PASS/FAIL, else its label, else its score; ERROR when it failed to run. */
export function evalChip(name: string, e: GridEval): string {
  if (e.error !== undefined) return `${name} ERROR`;
  if (e.passed !== undefined) return `${name} ${e.passed ? 'PASS' : 'FAIL'}`;
  if (e.label !== undefined) return `${name} ${e.label}`;
  return e.score === undefined ? `${name} n/a` : `${name} ${Number(e.score.toFixed(2))}`;
}

/** What a cell shows after its output: a conversation's turns, chips, latency, cost. */
export function cellFacts(cell: GridCell): string[] {
  return [
    ...cellChips(cell),
    ...(cell.latencyMs === undefined ? [] : [formatDuration(cell.latencyMs)]),
    ...(cell.costUsd === undefined ? [] : [formatCost(cell.costUsd)]),
  ];
}

/** The output (a conversation's: its last assistant turn), or the row's error, on one line. */
export function cellOutput(cell: GridCell): string {
  const text = cell.error !== undefined ? `ERROR ${cell.error}` : (cell.output ?? '');
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What a cell keeps whole when it is cut: a conversation's `[4t stop]`, then its eval chips.
 * (The note is a verdict of its own: how the conversation ended.)
 */
export function cellChips(cell: GridCell): string[] {
  const note = cell.conversation === undefined ? [] : [turnsNote(cell.conversation.turns, cell.conversation.endedBy)];
  return [...note, ...Object.entries(cell.evals).map(([name, e]) => evalChip(name, e))];
}

/**
 * Where the grid's conversation rows' transcripts are: the viewer's row page, opened by
 * `agentmark view <run> --row <n>` (the first conversation cell is the example). None without one.
 */
export function transcriptNote(grid: GridResult): string | undefined {
  for (const row of grid.rows) {
    const at = row.cells.findIndex((cell) => cell.conversation !== undefined);
    const cell = row.cells[at];
    if (cell?.conversation === undefined) continue;
    const id = grid.runs[at]?.id ?? '';
    return `Conversations show their last assistant turn; a transcript: agentmark view <run> --row <#> (e.g. agentmark view ${id} --row ${cell.conversation.row})`;
  }
  return undefined;
}

/** One line per head: its primary measure per eval against the base, and its gate. */
export function headLines(grid: GridResult): string[] {
  return grid.comparisons.map((c, i) => {
    const label = grid.runs[i + 1]?.label ?? c.head.id;
    const evals = c.evals.map((e) => {
      const diff = e.kind === 'verdict' ? e.passRate : e.score;
      const value = e.kind === 'verdict' ? e.head.passRate : e.head.meanScore;
      return `${e.name} ${value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`} (${diff ? `${signedPoints(diff.estimate)} pts` : 'n/a'})`;
    });
    return `${label} vs ${grid.runs[0]?.label ?? c.base.id}: ${evals.join(', ') || 'no evals'}; ${c.pairing.paired} paired rows; ${c.gate.message}`;
  });
}

/** What the rows are: how many are common, which runs miss some, the filter. */
export function gridCaption(grid: GridResult): string {
  const missing = grid.missing.flatMap((count, i) => (count > 0 ? [`${count} missing from ${grid.runs[i]?.label ?? i}`] : []));
  const filters = [grid.filter.disagree ? 'runs disagree' : '', grid.filter.failed ? 'some run failed' : ''].filter(Boolean);
  const what = filters.length > 0 ? `; ${grid.matched} where ${filters.join(' and ')}` : '';
  const order = grid.filter.sort === 'disagreement' ? ', most disagreement first' : '';
  return `${grid.common} rows in all ${grid.runs.length} runs${missing.length > 0 ? ` (${missing.join(', ')})` : ''}${what}${order}`;
}
