import type { ScoreSchema } from '../../project/types.js';
import type { ScoredEval } from '../types.js';
import type { Verdict } from '../../dataset/row-verdicts.js';
import type { VerdictKind } from './eval-agreement.js';

/** How an eval's verdicts are compared: by its score schema's type; untyped evals by pass/fail. */
export function verdictKind(schema: ScoreSchema | undefined): VerdictKind {
  return schema?.type ?? 'boolean';
}

/** The judge's verdict as its schema reads it; none when the eval errored, skipped or gave none. */
export function judgeVerdict(result: ScoredEval | undefined, kind: VerdictKind): Verdict | undefined {
  if (!result || result.error !== undefined || result.skipped) return undefined;
  if (kind === 'boolean') return result.passed;
  if (kind === 'categorical') return result.label;
  return result.score;
}

/**
 * Checks a person's verdict against the eval's score schema: true/false for boolean scores, a
 * number within [min, max] for numeric ones, one of the labels for categorical ones. Returns the
 * problem to report, naming the schema, or undefined when it fits.
 */
export function verdictProblem(evalName: string, schema: ScoreSchema | undefined, value: unknown): string | undefined {
  const where = `scores.${evalName} in agentmark.json`;
  const got = JSON.stringify(value);
  const kind = verdictKind(schema);
  if (kind === 'boolean') {
    return typeof value === 'boolean' ? undefined : `"${evalName}" is a boolean score (${where}): a label is true or false, got ${got}`;
  }
  if (kind === 'numeric') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `"${evalName}" is a numeric score (${where}): a label is a number, got ${got}`;
    const { min, max } = schema ?? {};
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      return `"${evalName}" is a numeric score from ${min ?? '-∞'} to ${max ?? '∞'} (${where}), got ${got}`;
    }
    return undefined;
  }
  const labels = (schema?.categories ?? []).map((category) => category.label);
  return typeof value === 'string' && labels.includes(value)
    ? undefined
    : `"${evalName}" is a categorical score (${where}) with labels ${labels.map((l) => JSON.stringify(l)).join(', ')}, got ${got}`;
}
