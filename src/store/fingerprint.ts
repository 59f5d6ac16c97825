import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { relative, sep } from 'node:path';
import type { FileFingerprint } from './types.js';

/**
 * A file's path relative to the project root (with `/`, so manifests compare across systems)
 * and the sha256 of its bytes, read as a stream (datasets can be large), so a later look at
 * the run — or `--resume` — can tell whether the file changed.
 */
export async function fingerprintFile(projectRoot: string, path: string): Promise<FileFingerprint> {
  const hasher = fileHasher(projectRoot, path);
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hasher.update(chunk);
  return hasher.digest();
}

/**
 * `fingerprintFile` fed by a read that happens anyway (the dataset check): give `update` every
 * chunk of the file in order, then `digest`. A million-row dataset is then read twice per run
 * (checked, then run), not three times.
 */
export function fileHasher(projectRoot: string, path: string): { update: (chunk: Buffer) => void; digest: () => FileFingerprint } {
  const hash = createHash('sha256');
  return {
    update: (chunk) => void hash.update(chunk),
    digest: () => ({ path: relative(projectRoot, path).split(sep).join('/'), hash: hash.digest('hex') }),
  };
}
