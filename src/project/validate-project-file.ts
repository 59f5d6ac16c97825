import { readFile } from 'node:fs/promises';
import type { ValidateFunction } from 'ajv';
import { toViolations, type SchemaViolation } from './schema-violation.js';

/**
 * `../../schema` is the package root both from `src/project/` (tests, jiti) and from
 * `dist/project/` (the published build mirrors src), so one URL serves both.
 */
const SCHEMA_URL = new URL('../../schema/agentmark.schema.json', import.meta.url);

let compiled: Promise<ValidateFunction> | undefined;

/** Compiled once per process: the schema never changes while the CLI runs. */
function projectFileValidator(): Promise<ValidateFunction> {
  compiled ??= (async () => {
    const [{ Ajv }, text] = await Promise.all([import('ajv'), readFile(SCHEMA_URL, 'utf8')]);
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    return ajv.compile(JSON.parse(text) as object);
  })();
  return compiled;
}

/** Every violation of `schema/agentmark.schema.json` in a parsed agentmark.json. */
export async function validateProjectFile(value: unknown): Promise<SchemaViolation[]> {
  const validate = await projectFileValidator();
  return validate(value) ? [] : toViolations(validate.errors);
}
