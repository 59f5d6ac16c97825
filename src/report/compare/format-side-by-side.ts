import type { CompareResult } from '../../compare/index.js';
import type { RunSummary } from '../../experiment/types.js';
import { formatCost } from '../format-cost.js';
import { formatDuration } from '../format-duration.js';
import { renderTable } from '../render-table.js';
import { fitTable, type FitColumn } from '../fit-table.js';
import { withoutIntervals } from '../shorten-cells.js';
import { renderEvalTable } from './eval-cells.js';
import { valueWithInterval } from './format-numbers.js';

/** One run of a side-by-side set: its label (model or prompt) and summary. */
export interface SideBySideRun {
  label: string;
  runId: string;
  summary: RunSummary;
}

function evalCell(summary: RunSummary, name: string): string {
  const e = summary.evals.find((x) => x.name === name);
  if (!e) return '—';
  const parts: string[] = [];
  if (e.passRate !== undefined) parts.push(valueWithInterval(e.passRate, e.passRateCi95));
  if (e.meanScore !== undefined) parts.push(`mean ${e.meanScore.toFixed(2)}`);
  return parts.length === 0 ? 'n/a' : parts.join(', ');
}

const GATE_MARK = { regressed: '✘', inconclusive: '?', 'no regression': '✔' } as const;

/**
 * What changed, in words that agree with the counts: rows whose verdict flipped (pass/fail evals),
 * then each score-only eval's rows scored lower / higher / the same, then the gate's own verdict.
 */
function changeLines(c: CompareResult): string[] {
  const lines: string[] = [];
  if (c.evals.some((e) => e.kind === 'verdict')) lines.push(`Verdicts changed: ${c.changedRows.regressed} rows regressed, ${c.changedRows.improved} improved.`);
  for (const e of c.evals) {
    if (e.kind === 'verdict') continue;
    lines.push(`Scores of ${e.name}: lower on ${e.regressed} rows, higher on ${e.improved}, the same on ${e.unchanged}.`);
  }
  lines.push(`${c.gate.checked ? 'Gate' : 'Regression check'}: ${GATE_MARK[c.gate.outcome]} ${c.gate.message}`);
  return lines;
}

/**
 * Several runs over the same rows (several models, or prompt variants): a column per run, then
 * the paired comparison of each run against the first.
 */
export function formatSideBySide(runs: readonly SideBySideRun[], comparisons: readonly CompareResult[], width?: number): string {
  const names = [...new Set(runs.flatMap((r) => r.summary.evals.map((e) => e.name)))];
  const rows: string[][] = [
    ['run', ...runs.map((r) => r.runId)],
    ['rows (errored)', ...runs.map((r) => `${r.summary.rows} (${r.summary.errored})`)],
    ...names.map((name) => [name, ...runs.map((r) => evalCell(r.summary, name))]),
    ['latency p50 / p95', ...runs.map((r) => (r.summary.latencyMs.p50 === undefined ? 'n/a' : `${formatDuration(r.summary.latencyMs.p50)} / ${formatDuration(r.summary.latencyMs.p95 ?? NaN)}`))],
    ['cost', ...runs.map((r) => formatCost(r.summary.costUsd))],
  ];
  // Each run's column loses its intervals first, then its label is cut; the measures stay whole.
  const columns: FitColumn[] = [{ header: '' }, ...runs.map((r): FitColumn => ({ header: r.label, shrink: (text) => withoutIntervals(text) }))];
  const fitted = width === undefined ? undefined : fitTable(columns, rows, width);
  const lines = [
    'SIDE BY SIDE (pass rate [95% CI], mean normalised score; latency and cost of live calls)',
    renderTable(fitted?.headers ?? ['', ...runs.map((r) => r.label)], fitted?.rows ?? rows),
  ];
  comparisons.forEach((c, i) => {
    const first = runs[0]?.label ?? 'first';
    const other = runs[i + 1]?.label ?? c.head.id;
    lines.push('', `${other} vs ${first} (head − base; ${c.pairing.paired} paired rows, p-values Holm-adjusted across evals):`);
    if (c.evals.length > 0) lines.push(renderEvalTable(c.evals, width));
    lines.push(...changeLines(c));
  });
  return `${lines.join('\n')}\n`;
}
