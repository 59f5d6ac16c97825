import type { EvalComparison } from '../../compare/index.js';
import { fitTable, leftOutNote, type FitColumn } from '../fit-table.js';
import { renderTable } from '../render-table.js';
import { withoutIntervals } from '../shorten-cells.js';
import { formatP, pointsInterval, signedPoints, valueWithInterval } from './format-numbers.js';

export const EVAL_HEADERS = ['Eval', 'Base', 'Head', 'Difference [95% CI]', 'Bootstrap 95%', 'p (Holm)', 'Improved / regressed / same', 'Detectable drop', 'Gate'];

/**
 * How the comparison table gives way to a narrow terminal (see fit-table.ts): Base, Head and the
 * difference lose their intervals, then Bootstrap 95%, Detectable drop, Improved / regressed /
 * same and p (Holm) are left out in that order. The eval's name and the gate always show.
 */
export const EVAL_COLUMNS: readonly FitColumn[] = [
  { header: 'Eval', shrink: (text) => text.replace(/ \((pass rate|mean score)\)$/, '') },
  { header: 'Base', shrink: withoutIntervals, group: 'intervals' },
  { header: 'Head', shrink: withoutIntervals, group: 'intervals' },
  { header: 'Difference [95% CI]', shortHeader: 'Difference', shrink: withoutIntervals, group: 'intervals' },
  { header: 'Bootstrap 95%', drop: 1 },
  { header: 'p (Holm)', drop: 4 },
  { header: 'Improved / regressed / same', drop: 3 },
  { header: 'Detectable drop', drop: 2 },
  { header: 'Gate' },
];

/** The comparison table of `evals`, fitted to `width` when given, with a line naming what was left out. */
export function renderEvalTable(evals: readonly EvalComparison[], width?: number): string {
  const rows = evals.map(evalCells);
  const fitted = width === undefined ? undefined : fitTable(EVAL_COLUMNS, rows, width);
  const table = renderTable(fitted?.headers ?? EVAL_HEADERS, fitted?.rows ?? rows);
  return [table, ...leftOutNote(fitted, width, '--format json')].join('\n');
}

/** One eval's row of the comparison table: its primary measure (pass rate for verdict evals, else mean score). */
export function evalCells(e: EvalComparison): string[] {
  const verdict = e.kind === 'verdict';
  const base = verdict ? valueWithInterval(e.base.passRate, e.base.passRateCi95) : valueWithInterval(e.base.meanScore, e.base.meanScoreCi95);
  const head = verdict ? valueWithInterval(e.head.passRate, e.head.passRateCi95) : valueWithInterval(e.head.meanScore, e.head.meanScoreCi95);
  const diff = verdict ? e.passRate : e.score;
  return [
    `${e.name} (${verdict ? 'pass rate' : 'mean score'})`,
    base,
    head,
    diff ? `${signedPoints(diff.estimate)} pts ${pointsInterval(diff.ci95)}` : 'n/a',
    pointsInterval(diff?.bootstrapCi95),
    formatP(diff?.pValueHolm),
    `${e.improved} / ${e.regressed} / ${e.unchanged}`,
    detectableCell(e),
    e.gate?.outcome ?? 'n/a',
  ];
}

/** The smallest drop the gate's test detects, or that it cannot at this many pairs. */
export function detectableCell(e: EvalComparison): string {
  if (e.undetectable) return `not detectable with ${e.pairs} pairs`;
  return e.minDetectable === undefined ? 'n/a' : `${(e.minDetectable * 100).toFixed(1)} pts`;
}

/** The line under the table that says what the columns are. */
export function evalsNote(evals: readonly EvalComparison[], settings: { alpha: number; maxDropPoints: number }): string {
  const tested = evals.filter((e) => (e.kind === 'verdict' ? e.passRate : e.score) !== undefined).length;
  const shares = evals.some((e) => e.passRate?.test === 'wilcoxon');
  const level = evals.find((e) => e.detectableAlpha !== undefined)?.detectableAlpha;
  const rates = shares ? 'Pass rates with repeats: each row\'s pass share, paired t interval, Wilcoxon signed-rank p; ' : '';
  return (
    `Differences are head − base in points, over paired rows. ${rates}Pass rates${shares ? ' with one repeat' : ''}: Newcombe interval, McNemar exact p; ` +
    `mean scores: paired t interval, Wilcoxon signed-rank p. p-values Holm-adjusted across ${tested} eval${tested === 1 ? '' : 's'}. ` +
    `Detectable drop: smallest drop the one-sided test finds with 80% power at α = ${settings.alpha}${tested > 1 && level !== undefined ? ` / ${tested} = ${Number(level.toPrecision(3))}` : ''}. ` +
    `Gate: regressed (significant drop), no regression (the test could see a ${settings.maxDropPoints}-point drop), inconclusive (it could not).`
  );
}
