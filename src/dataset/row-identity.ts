import { hash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** The parts of a row that make its identity: a dataset row and a stored result both have them. */
export interface RowContent {
  input: Record<string, unknown>;
  expectedOutput?: unknown;
  metadata?: Record<string, unknown>;
}

/**
 * The identity of a row: a hash of its content (input, expected output, metadata), so the same
 * row in another run, another dataset order or another copy of the file has the same identity.
 * `compare` pairs rows by it and `--shard` assigns rows by it. An absent expected output counts
 * as null, absent metadata as `{}` (a stored result drops undefined fields).
 */
export function rowIdentity(row: RowContent): string {
  return hash('sha256', rowContentText(row), 'base64url').slice(0, 22);
}

/**
 * The text rowIdentity hashes: the row's content as canonical JSON. Equal texts are equal
 * identities, so a reader that only matches rows within one process (compare pairing two
 * runs' rows) can key them by it and skip the hash.
 */
export function rowContentText(row: RowContent): string {
  // Keys in sorted order already: canonicalJson then writes this level without sorting it.
  return canonicalJson({ expectedOutput: row.expectedOutput ?? null, input: row.input, metadata: row.metadata ?? {} });
}
