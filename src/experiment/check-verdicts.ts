import { rowVerdicts, type DatasetRow } from '../dataset/index.js';
import { DatasetError, didYouMean, type SourceLocation } from '../errors/index.js';
import type { ScoreSchema } from '../project/types.js';
import { verdictProblem } from '../scoring/agreement/index.js';

/** Checks one row; returns the problem as a DatasetError naming the line, or undefined. */
export type RowCheck = (row: DatasetRow) => DatasetError | undefined;

/** A row's label that does not fit: which eval it names and what is wrong with it. */
export interface LabelProblem {
  name: string;
  problem: string;
}

/**
 * The first of a row's `labels` (human verdicts) that does not fit the score schemas: a score out
 * of range, a category the schema lacks, a boolean given a number, an eval that does not exist.
 * `evalNames` are the names a label may take besides the score schemas' own.
 */
export function labelProblemOf(row: DatasetRow, evalNames: readonly string[], scores: Readonly<Record<string, ScoreSchema>>): LabelProblem | undefined {
  const verdicts = rowVerdicts(row.metadata);
  if (!verdicts) return undefined;
  const known = new Set([...evalNames, ...Object.keys(scores)]);
  for (const [name, value] of Object.entries(verdicts)) {
    const typo = known.has(name) ? undefined : didYouMean(name, known);
    const problem = known.has(name) ? verdictProblem(name, scores[name], value) : `no eval or score schema is named "${name}"${typo ? `; ${typo}` : ''}`;
    if (problem !== undefined) return { name, problem };
  }
  return undefined;
}

/** The error for a label that does not fit, at `location` (the row's line, or the label's own line:col). */
export function labelError(found: LabelProblem, location: SourceLocation): DatasetError {
  return new DatasetError('DATASET_BAD_LABEL', `labels.${found.name}: ${found.problem}`, {
    location,
    hint: 'a label is the verdict a person gave: fix it to fit the score schema, or remove it',
  });
}

/**
 * Checks the human verdicts in a calibration set's rows (`labels`) against the score schemas
 * when a run starts, so a label that can never agree with a judge is an input error before any call.
 */
export function verdictCheck(file: string, evalNames: readonly string[], scores: Readonly<Record<string, ScoreSchema>>): RowCheck {
  return (row) => {
    const found = labelProblemOf(row, evalNames, scores);
    return found === undefined ? undefined : labelError(found, { file, line: row.line });
  };
}

/** Runs `first`, then `second` when the first found nothing. */
export function bothChecks(first: RowCheck, second: RowCheck): RowCheck {
  return (row) => first(row) ?? second(row);
}
