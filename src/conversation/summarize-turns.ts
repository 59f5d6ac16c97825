import type { ScoredEval } from '../scoring/types.js';

/**
 * One conversation's summary of a turn eval: the conversation, not the turn, is the unit every
 * statistic counts (10 conversations of 3 turns are n = 10), so each turn eval gives the row one
 * result. It passes when every judged turn passed; its score and normalised score are the means
 * over the judged turns; a categorical one carries the label of its lowest-valued turn. A turn
 * whose eval errored makes the summary an error naming it; turns the scorer skipped count for
 * nothing, and a conversation with no judged turn is skipped.
 */
export function summarizeTurns(results: ReadonlyArray<{ turn: number; result: ScoredEval }>): ScoredEval {
  const errored = results.find(({ result }) => result.error !== undefined);
  if (errored !== undefined) return { error: `turn ${errored.turn}: ${errored.result.error}` };
  const judged = results.filter(({ result }) => !result.skipped).map(({ result }) => result);
  if (judged.length === 0) return { skipped: true, reason: 'no assistant turn to judge' };
  const summary: ScoredEval = {};
  const verdicts = judged.filter((result) => result.passed !== undefined);
  if (verdicts.length > 0) summary.passed = verdicts.every((result) => result.passed === true);
  const score = mean(judged.map((result) => result.score));
  if (score !== undefined) summary.score = score;
  const normalized = mean(judged.map((result) => result.normalized));
  if (normalized !== undefined) summary.normalized = normalized;
  const labelled = judged.filter((result) => result.label !== undefined);
  if (labelled.length > 0) {
    const lowest = labelled.reduce((low, result) => ((result.normalized ?? 0) < (low.normalized ?? 0) ? result : low));
    if (lowest.label !== undefined) summary.label = lowest.label;
  }
  if (judged.some((result) => result.untyped)) summary.untyped = true;
  summary.reason =
    verdicts.length > 0 ? `${verdicts.filter((result) => result.passed === true).length}/${verdicts.length} turns passed` : `mean of ${judged.length} turn${judged.length === 1 ? '' : 's'}`;
  return summary;
}

function mean(values: ReadonlyArray<number | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0) / known.length;
}
