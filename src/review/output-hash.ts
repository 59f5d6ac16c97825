import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** Hash of a row's output, so a label can tell whether a later run produced the same answer. */
export function outputHash(output: unknown): string {
  return hash('sha256', canonicalJson(output ?? null), 'base64url').slice(0, 22);
}
