import { rowIdentity } from '../dataset/index.js';
import { didYouMean, UsageError } from '../errors/index.js';
import type { RowResult } from '../experiment/types.js';
import type { ScoreSchema } from '../project/types.js';
import { verdictProblem, type Verdict } from '../scoring/agreement/index.js';
import { outputHash } from './output-hash.js';
import type { AnnotationLine } from './types.js';

export interface LabelRequest {
  row: RowResult;
  eval: string;
  /** Undefined takes the reviewer's label back (undo). */
  value: Verdict | undefined;
  note?: string;
  reviewer: string;
  /** ISO 8601. */
  at: string;
}

/**
 * The annotation line for a label, checked first: the eval must be one the row was scored on,
 * and the value must fit its score schema. A problem is a UsageError (exit 2) naming the schema.
 */
export function labelLine(request: LabelRequest, scores: Readonly<Record<string, ScoreSchema>>): AnnotationLine {
  const { row } = request;
  const evals = Object.keys(row.evals);
  if (!evals.includes(request.eval)) {
    const hint = didYouMean(request.eval, evals);
    throw new UsageError('USAGE_UNKNOWN_EVAL', `row ${row.index} has no eval "${request.eval}"; it was scored on ${evals.length === 0 ? 'none' : evals.join(', ')}`, hint ? { hint } : {});
  }
  if (request.value !== undefined) {
    const problem = verdictProblem(request.eval, scores[request.eval], request.value);
    if (problem !== undefined) throw new UsageError('USAGE_BAD_LABEL', problem, { hint: 'a label must fit the eval\'s score schema' });
  }
  const line: AnnotationLine = {
    row: rowIdentity(row),
    index: row.index,
    repeat: row.repeat,
    outputHash: outputHash(row.output),
    eval: request.eval,
    reviewer: request.reviewer,
    at: request.at,
  };
  if (request.value === undefined) line.cleared = true;
  else line.value = request.value;
  if (request.note !== undefined && request.note !== '') line.note = request.note;
  return line;
}
