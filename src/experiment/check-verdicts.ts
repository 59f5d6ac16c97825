import { rowVerdicts, type DatasetRow } from '../dataset/index.js';
import { DatasetError, didYouMean } from '../errors/index.js';
import type { ScoreSchema } from '../project/types.js';
import { verdictProblem } from '../scoring/agreement/index.js';

/** Checks one row; returns the problem as a DatasetError naming the line, or undefined. */
export type RowCheck = (row: DatasetRow) => DatasetError | undefined;

/**
 * Checks the human verdicts in a calibration set's rows (`labels`) against the score schemas
 * when a run starts, so a label that can never agree with a judge (a score out of range, a
 * category the schema lacks, an eval that does not exist) is an input error before any call.
 */
export function verdictCheck(file: string, evalNames: readonly string[], scores: Readonly<Record<string, ScoreSchema>>): RowCheck {
  const known = new Set([...evalNames, ...Object.keys(scores)]);
  return (row) => {
    const verdicts = rowVerdicts(row.metadata);
    if (!verdicts) return undefined;
    for (const [name, value] of Object.entries(verdicts)) {
      const typo = known.has(name) ? undefined : didYouMean(name, known);
      const problem = known.has(name) ? verdictProblem(name, scores[name], value) : `no eval or score schema is named "${name}"${typo ? `; ${typo}` : ''}`;
      if (problem !== undefined) {
        return new DatasetError('DATASET_BAD_LABEL', `labels.${name}: ${problem}`, {
          location: { file, line: row.line },
          hint: 'a label is the verdict a person gave: fix it to fit the score schema, or remove it',
        });
      }
    }
    return undefined;
  };
}

/** Runs `first`, then `second` when the first found nothing. */
export function bothChecks(first: RowCheck, second: RowCheck): RowCheck {
  return (row) => first(row) ?? second(row);
}
