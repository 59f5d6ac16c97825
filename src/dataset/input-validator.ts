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
  const { Ajv } = await import('ajv');
  // strict off: input schemas come from users and may carry keywords ajv does not know.
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new DatasetError('DATASET_INPUT_SCHEMA_INVALID', `input_schema is not a valid JSON Schema: ${(error as Error).message}`);
  }
  const validator: InputValidator = (input) =>
    validate(input) ? [] : toViolations(validate.errors).map((violation) => `input${violation.pointer} ${violation.problem}`);
  cache.set(schema, validator);
  return validator;
}
