import type { ValidateFunction } from 'ajv';
import { DatasetError } from '../errors/index.js';
import { toViolations } from '../project/schema-violation.js';

/** Checks one row's input; returns one `input/path problem` line per violation. */
export type InputValidator = (input: Record<string, unknown>) => string[];

/** Compiled once per schema object: watch mode re-reads datasets with the same prompt schema. */
const cache = new WeakMap<object, InputValidator>();

/**
 * And once per schema text, for the few last schemas: the language server loads a prompt again
 * at each edit, which makes a new (equal) schema object each time, and compiling one costs more
 * than the rest of the check (a new ajv compiles its meta-schema first).
 */
const byText = new Map<string, InputValidator>();
const BY_TEXT_MAX = 64;

function schemaText(schema: object): string | undefined {
  try {
    // YAML's .inf and .nan would print as null, which is another schema (one ajv refuses).
    return JSON.stringify(schema, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? { '\u0000number': String(value) } : value));
  } catch {
    return undefined;
  }
}

/** Compiles a prompt's `input_schema` with every error reported (allErrors). */
export async function compileInputSchema(schema: object): Promise<InputValidator> {
  const cached = cache.get(schema);
  if (cached) return cached;
  const text = schemaText(schema);
  const same = text === undefined ? undefined : byText.get(text);
  if (same) {
    cache.set(schema, same);
    return same;
  }
  const { ajv, schema: readable } = await ajvFor(schema);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(readable);
  } catch (error) {
    throw new DatasetError('DATASET_INPUT_SCHEMA_INVALID', `input_schema is not a valid JSON Schema: ${(error as Error).message}`);
  }
  const validator: InputValidator = (input) =>
    validate(input) ? [] : toViolations(validate.errors).map((violation) => `input${violation.pointer} ${violation.problem}`);
  cache.set(schema, validator);
  if (text !== undefined) {
    if (byText.size >= BY_TEXT_MAX) byText.delete(byText.keys().next().value as string);
    byText.set(text, validator);
  }
  return validator;
}

/**
 * The validator for the draft a schema names in `$schema`, as AgentMark accepts them all:
 * 2020-12 and 2019-09 get their own ajv; draft-04/06 and unknown drafts are read as draft-07,
 * which agrees with them on everything a props schema uses.
 */
async function ajvFor(schema: object): Promise<{ ajv: { compile(schema: object): ValidateFunction }; schema: object }> {
  // strict off: input schemas come from users and may carry keywords ajv does not know.
  const options = { allErrors: true, verbose: true, strict: false, logger: false } as const;
  const draft = (schema as { $schema?: unknown }).$schema;
  if (typeof draft === 'string' && draft.includes('2020-12')) return { ajv: new (await import('ajv/dist/2020.js')).Ajv2020(options), schema };
  if (typeof draft === 'string' && draft.includes('2019-09')) return { ajv: new (await import('ajv/dist/2019.js')).Ajv2019(options), schema };
  const { Ajv } = await import('ajv');
  if (typeof draft === 'string' && !draft.includes('draft-07')) {
    const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
    return { ajv: new Ajv(options), schema: rest };
  }
  return { ajv: new Ajv(options), schema };
}
