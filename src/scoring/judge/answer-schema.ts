import type { ScoreSchema } from '../../project/types.js';
import type { JSONSchema7 } from '../../prompt/json-schema.js';
import type { EvalResult } from '../types.js';

/** What a judge must answer for one score schema, and how its answer becomes a result. */
export interface JudgeAnswerSpec {
  /** Object schema with `reasoning` first, so the model reasons before it commits to a verdict. */
  schema: JSONSchema7;
  /** One sentence for the judge prompt saying which verdict field to fill and how. */
  instructions: string;
  /** Only called with an answer that passed `schema` (ajv), which is why it may read fields unchecked. */
  toResult(answer: Record<string, unknown>): EvalResult;
}

const reasoning = { type: 'string', description: 'Step-by-step reasoning about the criteria, written before the verdict.' };

function objectSchema(field: string, fieldSchema: JSONSchema7): JSONSchema7 {
  return {
    type: 'object',
    properties: { reasoning, [field]: fieldSchema },
    required: ['reasoning', field],
    additionalProperties: false,
  };
}

function reasonOf(answer: Record<string, unknown>): string {
  return typeof answer['reasoning'] === 'string' ? answer['reasoning'] : '';
}

/**
 * Derives the judge's answer from the bound score schema: boolean → `passed`, numeric →
 * `score` within [min, max] (0..1 when the schema gives no range, since an unbounded score means
 * nothing to a model), categorical → `label` from the categories. No schema → boolean.
 * `threshold` gives numeric and categorical answers a verdict: passed when the score (a
 * category's value) is at least it.
 */
export function judgeAnswerSpec(score: ScoreSchema | undefined, threshold?: number): JudgeAnswerSpec {
  if (score?.type === 'numeric') {
    const bounded = score.min !== undefined || score.max !== undefined;
    const min = bounded ? score.min : 0;
    const max = bounded ? score.max : 1;
    const range: JSONSchema7 = { type: 'number' };
    if (min !== undefined) range['minimum'] = min;
    if (max !== undefined) range['maximum'] = max;
    const rangeText = min !== undefined && max !== undefined ? `from ${min} (worst) to ${max} (best)` : min !== undefined ? `of at least ${min}` : `of at most ${max}`;
    return {
      schema: objectSchema('score', range),
      instructions: `Give "score", a number ${rangeText}, for how well the output meets the criteria.`,
      toResult: (answer) => {
        const value = answer['score'] as number;
        return threshold === undefined
          ? { score: value, reason: reasonOf(answer) }
          : { score: value, passed: value >= threshold, reason: reasonOf(answer) };
      },
    };
  }
  if (score?.type === 'categorical') {
    const categories = score.categories ?? [];
    return {
      schema: objectSchema('label', { type: 'string', enum: categories.map((c) => c.label) }),
      instructions: `Give "label", exactly one of: ${categories.map((c) => c.label).join(', ')}.`,
      toResult: (answer) => {
        const label = answer['label'] as string;
        const category = categories.find((c) => c.label === label);
        const verdict = threshold === undefined || category === undefined ? {} : { passed: category.value >= threshold };
        return { label, ...(category ? { score: category.value } : {}), ...verdict, reason: reasonOf(answer) };
      },
    };
  }
  return {
    schema: objectSchema('passed', { type: 'boolean' }),
    instructions: 'Give "passed": true when the output meets the criteria, false when it does not.',
    toResult: (answer) => {
      const passed = answer['passed'] as boolean;
      return { passed, score: passed ? 1 : 0, reason: reasonOf(answer) };
    },
  };
}

/** The accuracy judge's fixed answer: an integer 1..10, passing at `threshold`. */
export function accuracyAnswerSpec(threshold: number): JudgeAnswerSpec {
  return {
    schema: objectSchema('score', { type: 'integer', minimum: 1, maximum: 10 }),
    instructions: 'Give "score", an integer from 1 (wrong) to 10 (fully accurate and complete).',
    toResult: (answer) => {
      const value = answer['score'] as number;
      return { score: value, passed: value >= threshold, reason: reasonOf(answer) };
    },
  };
}
