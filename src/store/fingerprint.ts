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
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return { path: relative(projectRoot, path).split(sep).join('/'), hash: hash.digest('hex') };
}
