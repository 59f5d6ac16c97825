import type { ValidateFunction } from 'ajv';
import { DatasetError } from '../errors/index.js';
import { toViolations } from '../project/schema-violation.js';

/** Checks one row's input; returns one `input/path problem` line per violation. */
export type InputValidator = (input: Record<string, unknown>) => string[];

/** Compiled once per schema object: watch mode re-reads datasets with the same prompt schema. */
const cache = new WeakMap<object, InputValidator>();

/** Compiles a prompt's `input_schema` with every error reported (allErrors). */
export async function compileInputSchema(schema: object): Promise<InputValidator> {
  const cached = cache.get(schema);
  if (cached) return cached;
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
