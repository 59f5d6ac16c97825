import { createHash } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { RunStoreError } from './store-error.js';

/** sha256 (hex) of a text's UTF-8 bytes: the name a text is stored under. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
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

  /** Stores the text unless a blob of the same hash is there already; gives back the hash. */
  async put(text: string): Promise<string> {
    const hash = textHash(text);
    const path = this.path(hash);
    try {
      await access(path);
      return hash;
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

  /** The text stored under `hash`; STORE_BLOB_MISSING when it is not there (pruned, or copied without it). */
  async get(hash: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw missing(hash, this.path(hash));
    try {
      return await readFile(this.path(hash), 'utf8');
    } catch (error) {
      throw missing(hash, this.path(hash), error);
    }
  }
}

function missing(hash: string, file: string, cause?: unknown): RunStoreError {
  return new RunStoreError('STORE_BLOB_MISSING', `the stored file ${hash.slice(0, 12)} is missing`, {
    location: { file },
    hint: 'the run was made before runs kept their prompt, or .agentmark/blobs/ was deleted',
    ...(cause === undefined ? {} : { cause }),
  });
}
