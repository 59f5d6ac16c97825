import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JSONSchema7 } from '../prompt/json-schema.js';
import { compileWith } from './safe-regex.js';

let instance: Promise<Ajv> | undefined;

/**
 * One shared Ajv, imported on first use so commands that never score start fast. Its `pattern`
 * and `patternProperties` use RE2 (linear time): these schemas come from users (json_schema's
 * option, a prompt's object schema), and a backtracking pattern would hang the run.
 */
export function getAjv(): Promise<Ajv> {
  instance ??= Promise.all([import('ajv'), import('re2js')]).then(([{ default: AjvClass }, { RE2JS }]) => {
    const regExp = Object.assign((pattern: string) => compileWith(RE2JS, pattern), { code: 'linear-time RE2 (re2js)' });
    return new AjvClass({ allErrors: true, strict: false, code: { regExp } });
  });
  return instance;
}

/** Compiles a schema; throws Ajv's own error when the schema itself is invalid. */
export async function compileSchema(schema: JSONSchema7): Promise<ValidateFunction> {
  const ajv = await getAjv();
  return ajv.compile(schema);
}

let trusted: Promise<Ajv> | undefined;

/**
 * Compiles one of our own schemas (a built-in scorer's `options`) without checking it against
 * the draft-07 meta-schema: that check compiles the meta-schema first (~20 ms at start-up), and
 * test/scoring/builtin-option-schemas.test.ts already checks these schemas. Schemas from users
 * go through `compileSchema`, which keeps the check.
 */
export async function compileTrustedSchema(schema: JSONSchema7): Promise<ValidateFunction> {
  trusted ??= import('ajv').then(({ default: AjvClass }) => new AjvClass({ allErrors: true, strict: false, validateSchema: false }));
  return (await trusted).compile(schema);
}

/** `/age must be number` per violation; `(root)` when the whole value is wrong. */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  if (!errors) return [];
  return errors.map((error) => {
    const where = error.instancePath === '' ? '(root)' : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties' && typeof error.params['additionalProperty'] === 'string'
        ? ` (${error.params['additionalProperty']})`
        : error.keyword === 'enum' && Array.isArray(error.params['allowedValues'])
          ? `: ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
          : '';
    return `${where} ${error.message ?? 'is invalid'}${extra}`;
  });
}
