import { validateAgentmarkSchema } from '../generated/agentmark-schema.validate.js';
import { toViolations, type SchemaViolation } from './schema-violation.js';

/**
 * Every violation of `schema/agentmark.schema.json` in a parsed agentmark.json. The validator is
 * compiled ahead of time by `npm run schemas` (scripts/compile-schemas.mjs), so no ajv start-up.
 */
export async function validateProjectFile(value: unknown): Promise<SchemaViolation[]> {
  const validate = validateAgentmarkSchema;
  return validate(value) ? [] : toViolations(validate.errors);
}
