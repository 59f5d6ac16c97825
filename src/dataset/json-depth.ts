/**
 * Rows nested deeper than this are rejected. V8's JSON.parse copes with far more, but code
 * that walks a row later (ajv, JSON.stringify for cache keys, rendering) recurses and would
 * overflow the stack with a RangeError far from the line that caused it.
 */
export const MAX_ROW_DEPTH = 1000;

/**
 * Deepest `[`/`{` nesting in JSON text, ignoring brackets inside strings. Callers skip it for
 * short lines: valid JSON needs two characters per level, so a line shorter than twice the
 * limit cannot exceed it.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return deepest;
}
