const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const INDEX = Buffer.from('index');
const REPEAT = Buffer.from('repeat');
const INPUT = Buffer.from('input');
const EXPECTED = Buffer.from('expectedOutput');
const METADATA = Buffer.from('metadata');

/**
 * Where a stored row's content ends: the length of the line's start that holds every top-level
 * key up to and including `input`, `expectedOutput` and `metadata` (the fields a row's identity
 * hashes, rowContentText), so that the start followed by `}` parses to an object with the same
 * index, repeat and content as the whole line. The runner writes these first (`index`, `line`,
 * `repeat`, `input`, `expectedOutput`, `metadata`, then the answer and its evals), and a check of
 * which shard a row belongs to then parses a third of the line instead of all of it.
 *
 * Found by walking the line's structure (strings skipped, brackets counted) without decoding
 * anything. Undefined where the line is not written the runner's way (whitespace, an escaped
 * key, keys out of that order) or not JSON as far as it was walked: the caller parses the whole
 * line. When the line has no `expectedOutput` before `metadata`, the rest of its top-level keys
 * are walked too: the prefix is used only when the line has none (the identity's `null`). A key
 * given twice (which JSON.stringify never writes) could differ from the whole line's parse,
 * which keeps the last; the checked results files are the runner's own.
 */
export function contentPrefixLength(bytes: Uint8Array, from: number, end: number): number | undefined {
  if (end - from < 2 || bytes[from] !== OPEN_OBJECT) return undefined;
  let at = from + 1;
  let index = false;
  let repeat = false;
  let input = false;
  let expected = false;
  let prefix: number | undefined;
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    const keyStart = at + 1;
    const keyEnd = stringEnd(bytes, keyStart, end, true);
    if (keyEnd === undefined || bytes[keyEnd + 1] !== COLON) return undefined;
    const valueEnd = skipValue(bytes, keyEnd + 2, end);
    if (valueEnd === undefined) return undefined;
    if (prefix === undefined) {
      if (isKey(bytes, keyStart, keyEnd, INDEX)) index = true;
      else if (isKey(bytes, keyStart, keyEnd, REPEAT)) repeat = true;
      else if (isKey(bytes, keyStart, keyEnd, INPUT)) input = true;
      else if (isKey(bytes, keyStart, keyEnd, EXPECTED)) expected = true;
      else if (isKey(bytes, keyStart, keyEnd, METADATA)) {
        // The runner's order put `index`, `repeat` and `input` first; a line without them before
        // is not a row to take apart (a prefix lacking its index would pass the check unchecked).
        if (!index || !repeat || !input) return undefined;
        if (expected) return valueEnd - from;
        prefix = valueEnd - from;
      }
    } else if ([EXPECTED, INPUT, METADATA, INDEX, REPEAT].some((key) => isKey(bytes, keyStart, keyEnd, key))) {
      return undefined;
    }
    const next = bytes[valueEnd];
    if (next === CLOSE_OBJECT) return valueEnd + 1 === end ? prefix : undefined;
    if (next !== COMMA) return undefined;
    at = valueEnd + 1;
  }
}

/** Whether `bytes[start, end)` is `key`. */
function isKey(bytes: Uint8Array, start: number, end: number, key: Buffer): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i += 1) if (bytes[start + i] !== key[i]) return false;
  return true;
}

/**
 * The position of the quote closing the string whose text starts at `at`; undefined when it is
 * not closed before `end`, or (`plain`, for keys) when it holds an escape.
 */
function stringEnd(bytes: Uint8Array, at: number, end: number, plain: boolean): number | undefined {
  for (let i = at; i < end; i += 1) {
    const c = bytes[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      if (plain) return undefined;
      i += 1;
    }
  }
  return undefined;
}

/**
 * The position just after the value starting at `at`: a string, an object or an array (to its
 * closing bracket, strings inside skipped), or a bare number, `true`, `false` or `null` (to the
 * next `,`, `}` or `]`). Only the structure is followed: what the brackets hold is JSON.parse's to
 * judge, on the prefix.
 */
function skipValue(bytes: Uint8Array, at: number, end: number): number | undefined {
  const first = bytes[at];
  if (first === QUOTE) {
    const close = stringEnd(bytes, at + 1, end, false);
    return close === undefined ? undefined : close + 1;
  }
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = at; i < end; i += 1) {
      const c = bytes[i];
      if (c === QUOTE) {
        const close = stringEnd(bytes, i + 1, end, false);
        if (close === undefined) return undefined;
        i = close;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
    }
    return undefined;
  }
  for (let i = at; i < end; i += 1) {
    const c = bytes[i];
    if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY) return i === at ? undefined : i;
  }
  return undefined;
}
