import type { Pool } from 'pg';
import { textHash } from '../blob-store.js';
import { RunStoreError } from '../store-error.js';

/** Stores a prompt file by its sha256; one edited in the table since is written again (the hash says what it must hold). */
export async function putBlobRow(pool: Pool, text: string): Promise<string> {
  const hash = textHash(text);
  await pool.query(
    `INSERT INTO agentmark_blobs (hash, bytes) VALUES ($1, $2)
     ON CONFLICT (hash) DO UPDATE SET bytes = EXCLUDED.bytes WHERE encode(sha256(agentmark_blobs.bytes), 'hex') <> agentmark_blobs.hash`,
    [hash, Buffer.from(text, 'utf8')],
  );
  return hash;
}

/** The stored file of `hash`, checked against it: STORE_BLOB_MISSING, STORE_BLOB_CHANGED. */
export async function getBlobRow(pool: Pool, location: string, hash: string): Promise<string> {
  const { rows } = await pool.query<{ bytes: Buffer }>('SELECT bytes FROM agentmark_blobs WHERE hash = $1', [hash]);
  const bytes = rows[0]?.bytes;
  const where = `${location} (blob ${hash.slice(0, 12)})`;
  if (bytes === undefined) {
    throw new RunStoreError('STORE_BLOB_MISSING', `the stored file ${hash.slice(0, 12)} is missing`, {
      location: { file: where },
      hint: 'the run was pushed without its prompt files: push it again from the checkout that made it',
    });
  }
  const found = textHash(bytes.toString('utf8'));
  if (found !== hash) {
    throw new RunStoreError('STORE_BLOB_CHANGED', `the stored file ${hash.slice(0, 12)} was changed after it was stored (its sha256 is ${found.slice(0, 12)} now)`, {
      location: { file: where },
      hint: 'a stored file never changes: push the run again from a checkout that has it',
    });
  }
  return bytes.toString('utf8');
}
