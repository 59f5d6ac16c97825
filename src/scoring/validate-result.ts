import { closestMatch } from '../errors/index.js';
import type { ScoreSchema } from '../project/types.js';
import type { ScoredEval } from './types.js';

type Fields = { score?: number; passed?: boolean; label?: string; reason?: string; skipped?: boolean };

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Checks the field types every result shares; returns the error text or the typed fields. */
function readFields(result: Record<string, unknown>): Fields | string {
  const { score, passed, label, reason, skipped } = result;
  const fields: Fields = {};
  if (score !== undefined) {
    if (typeof score !== 'number' || !Number.isFinite(score)) return `"score" must be a finite number, got ${describe(score)}`;
    fields.score = score;
  }
  if (passed !== undefined) {
    if (typeof passed !== 'boolean') return `"passed" must be a boolean, got ${describe(passed)}`;
    fields.passed = passed;
  }
  if (label !== undefined) {
    if (typeof label !== 'string') return `"label" must be a string, got ${describe(label)}`;
    fields.label = label;
  }
  if (reason !== undefined) {
    if (typeof reason !== 'string') return `"reason" must be a string, got ${describe(reason)}`;
    fields.reason = reason;
  }
  if (skipped !== undefined) {
    if (typeof skipped !== 'boolean') return `"skipped" must be a boolean, got ${describe(skipped)}`;
    if (skipped) fields.skipped = true;
  }
  return fields;
}

function withReason(base: ScoredEval, reason: string | undefined): ScoredEval {
  return reason === undefined ? base : { ...base, reason };
}

function unitInterval(value: number | undefined): number | undefined {
  return value !== undefined && value >= 0 && value <= 1 ? value : undefined;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `within [${min}, ${max}]`;
  if (min !== undefined) return `>= ${min}`;
  return max !== undefined ? `<= ${max}` : '';
}

function validateBoolean(fields: Fields): ScoredEval {
  const passed = fields.passed ?? (fields.score !== undefined ? fields.score >= 0.5 : undefined);
  if (passed === undefined) return { error: 'a boolean score needs "passed" (or a "score", where >= 0.5 means passed)' };
  const result: ScoredEval = { passed, score: fields.score ?? (passed ? 1 : 0), normalized: passed ? 1 : 0 };
  if (fields.label !== undefined) result.label = fields.label;
  return withReason(result, fields.reason);
}

function validateNumeric(fields: Fields, schema: ScoreSchema): ScoredEval {
  const { min, max } = schema;
  const score = fields.score;
  if (score === undefined) return { error: `a numeric score needs "score", a number${range(min, max) ? ` ${range(min, max)}` : ''}` };
  if ((min !== undefined && score < min) || (max !== undefined && score > max)) {
    return { error: `score ${score} is not ${range(min, max)}` };
  }
  const result: ScoredEval = { score };
  const normalized =
    min !== undefined && max !== undefined ? (max === min ? 1 : (score - min) / (max - min)) : unitInterval(score);
  if (normalized !== undefined) result.normalized = normalized;
  if (fields.passed !== undefined) result.passed = fields.passed;
  if (fields.label !== undefined) result.label = fields.label;
  return withReason(result, fields.reason);
}

function validateCategorical(fields: Fields, schema: ScoreSchema): ScoredEval {
  const categories = schema.categories ?? [];
  const labels = categories.map((c) => c.label);
  if (fields.label === undefined) return { error: `a categorical score needs "label", one of: ${labels.join(', ')}` };
  const category = categories.find((c) => c.label === fields.label);
  if (!category) {
    const close = closestMatch(fields.label, labels);
    const hint = close === undefined ? '' : ` (did you mean "${close}"?)`;
    return { error: `label "${fields.label}" is not one of: ${labels.join(', ')}${hint}` };
  }
  const values = categories.map((c) => c.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const result: ScoredEval = { label: category.label, score: category.value, normalized: high === low ? 1 : (category.value - low) / (high - low) };
  if (fields.passed !== undefined) result.passed = fields.passed;
  return withReason(result, fields.reason);
}

/**
 * Reads a scorer's result against its score schema (format.md section 4) and adds `normalized`
 * in [0, 1]. Whatever breaks the schema becomes `error` saying what was expected, never a throw.
 * Without a schema the result is kept as given (`untyped`), with `normalized` when it is
 * evident: a score already in [0, 1], else a verdict as 1/0.
 */
export function validateResult(result: unknown, schema?: ScoreSchema): ScoredEval {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    return { error: `a scorer must return an object like { passed, score, label, reason }, got ${describe(result)}` };
  }
  const fields = readFields(result as Record<string, unknown>);
  if (typeof fields === 'string') return { error: fields };
  if (fields.skipped) return withReason({ skipped: true }, fields.reason);
  if (schema === undefined) {
    const untyped: ScoredEval = { ...fields, untyped: true };
    const normalized = unitInterval(fields.score) ?? (fields.passed === undefined ? undefined : fields.passed ? 1 : 0);
    if (normalized !== undefined) untyped.normalized = normalized;
    return untyped;
  }
  switch (schema.type) {
    case 'boolean':
      return validateBoolean(fields);
    case 'numeric':
      return validateNumeric(fields, schema);
    case 'categorical':
      return validateCategorical(fields, schema);
    default:
      return { error: `unknown score type ${JSON.stringify((schema as { type: unknown }).type)}` };
  }
}
