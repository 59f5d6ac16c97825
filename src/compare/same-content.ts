import { canonicalJson } from '../canonical-json.js';
import type { RowContent } from '../dataset/row-identity.js';

/** A value JSON text can give: its canonical text is what its structure says (no toJSON, no `__proto__` key). */
function plainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.toJSON !== 'function' && !Object.hasOwn(record, '__proto__');
}

/** Whether JSON.stringify writes the leaf as it stands: a string, a finite number, a boolean or null. */
const plainLeaf = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Whether two values have equal canonical JSON, by walking them instead of writing their text:
 * equal leaves (`===`: +0 and -0 both write `0`), arrays of equal items, objects with the same
 * keys and equal values. Anything JSON.parse does not make (undefined, a function, a toJSON, a
 * `__proto__` key, a non-finite number) is settled by the texts themselves.
 */
function canonicalEqual(a: unknown, b: unknown): boolean {
  if (a === b && plainLeaf(a)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return plainLeaf(a) && plainLeaf(b) ? a === b : canonicalJson(a) === canonicalJson(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (Object.getPrototypeOf(a) !== Array.prototype || Object.getPrototypeOf(b) !== Array.prototype) return canonicalJson(a) === canonicalJson(b);
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) {
      const x: unknown = a[i];
      const y: unknown = b[i];
      if (x === undefined || y === undefined) return canonicalJson(a) === canonicalJson(b);
      if (!canonicalEqual(x, y)) return false;
    }
    return true;
  }
  if (!plainObject(a) || !plainObject(b)) return canonicalJson(a) === canonicalJson(b);
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return canonicalJson(a) === canonicalJson(b);
  for (const key of keys) {
    const x = left[key];
    const y = right[key];
    if (x === undefined || y === undefined || !Object.hasOwn(right, key)) return canonicalJson(a) === canonicalJson(b);
    if (!canonicalEqual(x, y)) return false;
  }
  return true;
}

/**
 * Whether two rows have the same identity text (rowContentText): the same input, expected output
 * (absent as null) and metadata (absent as `{}`), without writing either text. For two runs of
 * one dataset read in step, the rows at the same place are compared so, and only rows that do
 * not line up need their texts.
 */
export function sameContent(a: RowContent, b: RowContent): boolean {
  return canonicalEqual(a.expectedOutput ?? null, b.expectedOutput ?? null)
    && sameField(a.input, b.input)
    && canonicalEqual(a.metadata ?? {}, b.metadata ?? {});
}

/** A property of the identity object: left out of its text when undefined, so two undefined ones are equal. */
function sameField(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return canonicalJson({ field: a }) === canonicalJson({ field: b });
  return canonicalEqual(a, b);
}
