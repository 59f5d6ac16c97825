import type { ScoreSchema } from '../project/types.js';
import type { ScoreRange } from './statistics.js';

/**
 * The range a score schema allows: [0, 1] for a verdict, [min, max] for a numeric score with
 * both bounds, the lowest and highest category value. Undefined when nothing bounds the score
 * (no schema, or a numeric one open at either end): its interval is then left as computed.
 */
export function scoreRange(schema: ScoreSchema | undefined): ScoreRange | undefined {
  if (schema === undefined) return undefined;
  if (schema.type === 'boolean') return [0, 1];
  if (schema.type === 'numeric') return schema.min !== undefined && schema.max !== undefined ? [schema.min, schema.max] : undefined;
  const values = (schema.categories ?? []).map((category) => category.value);
  return values.length > 0 ? [Math.min(...values), Math.max(...values)] : undefined;
}

/** `scoreRange` of each bound eval, by name, for `EvalTallies`. */
export function scoreRanges(evals: ReadonlyArray<{ name: string; schema: ScoreSchema | undefined }>): Map<string, ScoreRange> {
  const ranges = new Map<string, ScoreRange>();
  for (const { name, schema } of evals) {
    const range = scoreRange(schema);
    if (range) ranges.set(name, range);
  }
  return ranges;
}
