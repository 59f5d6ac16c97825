import { EvalBindingError } from '../../errors/index.js';
import type { JSONSchema7 } from '../../prompt/json-schema.js';
import { compileSchema, formatAjvErrors } from '../ajv.js';
import { UnsupportedPattern } from '../safe-regex.js';
import type { BuiltinScorer } from '../types.js';
import { deepEqual, isPlainObject } from './deep-equal.js';
import { defineScorer } from './define-scorer.js';
import { parseJson } from './text.js';

export const jsonValid = defineScorer<Record<string, never>>({
  name: 'json_valid',
  description: 'Passes when the output is valid JSON (an object prompt always is).',
  options: { type: 'object', properties: {}, additionalProperties: false },
  create: () => (params) => {
    if (typeof params.output !== 'string') return { passed: true, score: 1, reason: 'output is structured JSON' };
    const parsed = parseJson(params.output);
    return parsed.ok
      ? { passed: true, score: 1, reason: 'output is valid JSON' }
      : { passed: false, score: 0, reason: `output is not valid JSON: ${parsed.error}` };
  },
});

export interface JsonSchemaOptions {
  /** The JSON Schema the output must match. @default the prompt's object_config.schema */
  schema?: JSONSchema7;
}

export const jsonSchema = defineScorer<JsonSchemaOptions>({
  name: 'json_schema',
  description: "Passes when the output matches a JSON Schema (its own, or the prompt's object_config.schema).",
  options: {
    type: 'object',
    properties: { schema: { type: 'object', description: 'JSON Schema; defaults to object_config.schema.' } },
    additionalProperties: false,
  },
  create: async (options, ctx) => {
    const schema = options.schema ?? ctx.promptSchema;
    const location = { file: ctx.promptPath };
    if (schema === undefined) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": json_schema has no schema`, {
        location,
        hint: 'set options.schema on the score in agentmark.json, or use an object prompt (object_config.schema)',
      });
    }
    let validate: Awaited<ReturnType<typeof compileSchema>>;
    try {
      validate = await compileSchema(schema);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": invalid JSON Schema: ${message}`, {
        location,
        ...(error instanceof UnsupportedPattern ? { hint: error.hint } : {}),
      });
    }
    return (params) => {
      const parsed = parseJson(params.output);
      if (!parsed.ok) return { passed: false, score: 0, reason: `output is not valid JSON: ${parsed.error}` };
      if (validate(parsed.value)) return { passed: true, score: 1, reason: 'output matches the schema' };
      const violations = formatAjvErrors(validate.errors);
      const count = `${violations.length} schema violation${violations.length === 1 ? '' : 's'}`;
      return { passed: false, score: 0, reason: `${count}: ${violations.join('; ')}` };
    };
  },
});

export interface JsonFieldsOptions {
  /** Only these top-level fields are compared. @default every field of the expected object */
  fields?: string[];
  /** Fraction of fields that must match to pass. @default 1 */
  threshold?: number;
}

function asObject(value: unknown, what: string): Record<string, unknown> | string {
  const parsed = parseJson(value);
  if (!parsed.ok) return `${what} is not valid JSON: ${parsed.error}`;
  if (!isPlainObject(parsed.value)) return `${what} is not a JSON object`;
  return parsed.value;
}

export const jsonFields = defineScorer<JsonFieldsOptions>({
  name: 'json_fields',
  description: 'Scores the fraction of fields of the output object that equal the expected object.',
  options: {
    type: 'object',
    properties: {
      fields: { type: 'array', items: { type: 'string' }, minItems: 1 },
      threshold: { type: 'number', minimum: 0, maximum: 1 },
    },
    additionalProperties: false,
  },
  create: (options) => (params) => {
    if (params.expectedOutput === undefined) throw new Error('json_fields needs expected_output on the row');
    const expected = asObject(params.expectedOutput, 'expected_output');
    // A bad expected_output is the dataset's fault, not the model's: an error, not a failure.
    if (typeof expected === 'string') throw new Error(expected);
    const actual = asObject(params.output, 'output');
    if (typeof actual === 'string') return { passed: false, score: 0, reason: actual };
    const fields = options.fields ?? Object.keys(expected);
    if (fields.length === 0) throw new Error('json_fields has no fields to compare (expected_output is {})');
    const mismatched = fields.filter((field) =>
      !(field in actual) ? true : !deepEqual(actual[field], expected[field]),
    );
    const matched = fields.length - mismatched.length;
    const score = matched / fields.length;
    const passed = score >= (options.threshold ?? 1);
    const detail = mismatched.map((field) => (field in actual ? field : `${field} (missing)`));
    const reason = `${matched}/${fields.length} fields match` + (detail.length ? `; mismatched: ${detail.join(', ')}` : '');
    return { passed, score, reason };
  },
});

export const jsonScorers: BuiltinScorer[] = [jsonValid, jsonSchema, jsonFields];
