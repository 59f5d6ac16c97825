import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** Hash of a row's output, so a label can tell whether a later run produced the same answer. */
export function outputHash(output: unknown): string {
  return createHash('sha256').update(canonicalJson(output ?? null)).digest('base64url').slice(0, 22);
}
