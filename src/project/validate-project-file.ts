import { readFile } from 'node:fs/promises';
import type { ValidateFunction } from 'ajv';
import { toViolations, type SchemaViolation } from './schema-violation.js';
import { packageFile } from '../package-paths.js';

/**
 * `../../schema` is the package root both from `src/project/` (tests, jiti) and from
 * `dist/project/` (the published build mirrors src), so one URL serves both.
 */
const SCHEMA_PATH = packageFile('schema', 'agentmark.schema.json');

let compiled: Promise<ValidateFunction> | undefined;

/** Compiled once per process: the schema never changes while the CLI runs. */
function projectFileValidator(): Promise<ValidateFunction> {
  compiled ??= (async () => {
    const [{ Ajv }, text] = await Promise.all([import('ajv'), readFile(SCHEMA_PATH, 'utf8')]);
    // Our own schema, checked by its tests: skipping the meta-schema check saves a compile at every start.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, validateSchema: false });
    return ajv.compile(JSON.parse(text) as object);
  })();
  return compiled;
}

/** Every violation of `schema/agentmark.schema.json` in a parsed agentmark.json. */
export async function validateProjectFile(value: unknown): Promise<SchemaViolation[]> {
  const validate = await projectFileValidator();
  return validate(value) ? [] : toViolations(validate.errors);
}
