const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isIndex = (key: string): boolean => ARRAY_INDEX.test(key) && Number(key) < 4294967295;
/** isIndex, with the regular expression run only on keys that start with a digit (as every index does). */
const isIndexKey = (key: string): boolean => {
  const code = key.charCodeAt(0);
  return code >= 0x30 && code <= 0x39 && isIndex(key);
};

/**
 * Keys as JSON text, for keys seen before: a dataset's rows share their keys, and a native
 * JSON.stringify call per key per row was a part of each row's identity. Bounded, so rows whose
 * keys are all different (ids as keys) only fill it once.
 */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 4096;

function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEYS_MAX) quotedKeys.set(key, text);
  }
  return text;
}

/** Not an object: JSON.stringify writes it the same wherever it sits (or leaves it out alike). */
const isLeaf = (value: unknown): boolean => value === null || typeof value !== 'object';

/**
 * Whether an object's own key order is already the sorted copy's: objects list array-index keys
 * first in numeric order (as the copy does), so only the other keys need to be ascending.
 */
function inCanonicalOrder(keys: readonly string[]): boolean {
  let previous: string | undefined;
  for (const key of keys) {
    const code = key.charCodeAt(0);
    if (code >= 0x30 && code <= 0x39 && isIndex(key)) continue;
    if (previous !== undefined && key < previous) return false;
    previous = key;
  }
  return true;
}

/**
 * The key order of an object built by assigning `keys` sorted: array-index keys come first in
 * numeric order (objects keep them so), then the others in sorted order.
 */
function orderOfSortedCopy(keys: string[]): string[] {
  keys.sort();
  if (!keys.some(isIndexKey)) return keys;
  const indexes = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isIndex(key))];
}

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text (and equal
 * cache keys) whatever order their keys were written in. `undefined` is dropped as JSON does.
 *
 * Written out directly rather than by `JSON.stringify` of a sorted copy: row identities hash
 * this text for every row that `compare`, `merge` and `--shard` read (two per pair at 1,000,000
 * rows), and building the copy cost about half of it. A part already in canonical order (keys
 * sorted, nothing nested) is written by one native JSON.stringify. The text is the same as
 * `JSON.stringify(sortedCopy)` would give, where the copy takes every non-array object's own
 * enumerable keys (so a Date is `{}`).
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

/**
 * The canonical text of `value` as it would stand as a property's value: undefined where the
 * property is left out (a function, a symbol, undefined), as `canonicalJson` of the object
 * holding it would. For writers that put an object of a known shape together themselves.
 */
export function canonicalPart(value: unknown): string | undefined {
  return write(value);
}

/** The text of `value`, or undefined where JSON.stringify leaves a value out (functions, symbols, undefined). */
function write(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.every(isLeaf) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') return JSON.stringify(value);
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) text += ',';
      text += write(value[i]) ?? 'null';
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // Where the copy's own behaviour shows (a `toJSON` function, or a `__proto__` key that sets
  // its prototype), build the copy: these never come from JSON text.
  if (typeof record.toJSON === 'function' || Object.hasOwn(record, '__proto__')) return JSON.stringify(sortKeys(value));
  let keys = Object.keys(record);
  if (!inCanonicalOrder(keys)) keys = orderOfSortedCopy(keys);
  else if (keys.every((key) => isLeaf(record[key]))) return JSON.stringify(record);
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = write(record[key]);
    if (item === undefined) continue;
    text += `${first ? '' : ','}${quoted(key)}:${item}`;
    first = false;
  }
  return `${text}}`;
}

/** The sorted copy itself, for the values `write` does not write out directly. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}
