import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { RunStoreError } from './store-error.js';

/** sha256 (hex) of a text's UTF-8 bytes: the name a text is stored under. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function bytesHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Texts stored by their hash under `.agentmark/blobs/<sha256>`: the prompt files runs were made
 * from. The same text is stored once however many runs use it, and a blob never changes once
 * written (written through a rename, so a reader never sees half of one).
 */
export class BlobStore {
  readonly dir: string;

  /** @param dir defaults to `<projectRoot>/.agentmark/blobs` */
  constructor(projectRoot: string, dir: string = join(projectRoot, '.agentmark', 'blobs')) {
    this.dir = dir;
  }

  path(hash: string): string {
    return join(this.dir, hash);
  }

  /**
   * Stores the text unless a blob of the same hash is there already; gives back the hash. One
   * there that was edited in place is written again (the hash says what it must hold).
   */
  async put(text: string): Promise<string> {
    const hash = textHash(text);
    const path = this.path(hash);
    try {
      if (bytesHash(await readFile(path)) === hash) return hash;
    } catch {
      // not stored yet
    }
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(path, text);
    return hash;
  }

  /**
   * Copies the blobs of `hashes` that `from` has and this store lacks (a merge of shards made in
   * other checkouts); a blob neither has is left for `get` to report.
   */
  async copyFrom(from: BlobStore, hashes: readonly string[]): Promise<void> {
    if (from.dir === this.dir) return;
    for (const hash of hashes) {
      const text = await from.get(hash).catch(() => undefined);
      if (text !== undefined) await this.put(text);
    }
  }

  /** The blob store of the project a run folder belongs to: `<root>/.agentmark/{runs/<id>,blobs}`. */
  static ofRunDir(runDir: string): BlobStore {
    const agentmarkDir = dirname(dirname(runDir));
    return new BlobStore(agentmarkDir, join(agentmarkDir, 'blobs'));
  }

  /**
   * The text stored under `hash`, checked against it: STORE_BLOB_MISSING when it is not there
   * (pruned, or copied without it), STORE_BLOB_CHANGED when it was edited after it was stored (a
   * rerun "as that run stored it" must not run something else).
   */
  async get(hash: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw missing(hash, this.path(hash));
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path(hash));
    } catch (error) {
      throw missing(hash, this.path(hash), error);
    }
    const found = bytesHash(bytes);
    if (found !== hash) {
      throw new RunStoreError('STORE_BLOB_CHANGED', `the stored file ${hash.slice(0, 12)} was changed after it was stored (its sha256 is ${found.slice(0, 12)} now)`, {
        location: { file: this.path(hash) },
        hint: 'a stored file never changes: restore it from another copy of .agentmark/blobs/, or run the prompt afresh with run-experiment',
      });
    }
    return bytes.toString('utf8');
  }
}

function missing(hash: string, file: string, cause?: unknown): RunStoreError {
  return new RunStoreError('STORE_BLOB_MISSING', `the stored file ${hash.slice(0, 12)} is missing`, {
    location: { file },
    hint: 'the run was made before runs kept their prompt, or .agentmark/blobs/ was deleted',
    ...(cause === undefined ? {} : { cause }),
  });
}
