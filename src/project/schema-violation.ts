import type { ErrorObject } from 'ajv';

/** One JSON Schema violation: the JSON Pointer of the offending value and what is wrong. */
export interface SchemaViolation {
  /** JSON Pointer (`/scores/tone/categories`); empty for the document itself. */
  pointer: string;
  /** Human wording, starting with the pointer so it reads on its own. */
  message: string;
  /** The wording without the pointer, for callers that name the value their own way. */
  problem: string;
}

/**
 * Turns ajv's errors into one readable line each. `if` errors are dropped because the failing
 * `then` branch already says what is missing; repeating "must match then schema" only adds noise.
 */
export function toViolations(errors: readonly ErrorObject[] | null | undefined): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    if (error.keyword === 'if') continue;
    const problem = describe(error);
    const violation = { pointer: error.instancePath, message: `${error.instancePath || '(root)'} ${problem}`, problem };
    if (seen.has(violation.message)) continue;
    seen.add(violation.message);
    violations.push(violation);
  }
  return violations;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `must have required property "${String(params['missingProperty'])}"`;
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      return `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')} (got ${JSON.stringify(error.data)})`;
    }
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])} (got ${JSON.stringify(error.data)})`;
    case 'type':
      return `must be ${String(params['type'])} (got ${typeName(error.data)})`;
    case 'additionalProperties':
      return `must not have property "${String(params['additionalProperty'])}"`;
    case 'minItems': {
      const limit = Number(params['limit']);
      return `must have at least ${limit} item${limit === 1 ? '' : 's'}`;
    }
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}
