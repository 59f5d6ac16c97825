/**
 * Rows nested deeper than this are rejected. V8's JSON.parse copes with far more, but code
 * that walks a row later (ajv, JSON.stringify for cache keys, rendering) recurses and would
 * overflow the stack with a RangeError far from the line that caused it.
 */
export const MAX_ROW_DEPTH = 1000;

/**
 * Offset of the first `[`/`{` that opens level `limit + 1` of JSON text (brackets inside strings
 * ignored), or undefined when the text stays within `limit` levels. A linear scan before the
 * parser, so hostile nesting costs one pass, never the stack, and the error can say where.
 * Callers skip it for short lines: valid JSON needs two characters per level, so a line shorter
 * than twice the limit cannot exceed it.
 */
export function jsonTooDeepAt(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return i;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return undefined;
}
