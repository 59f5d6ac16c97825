import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { FileFingerprint } from './types.js';

/**
 * A file's path relative to the project root (with `/`, so manifests compare across systems)
 * and the sha256 of its text, so a later look at the run can tell whether the file changed.
 */
export async function fingerprintFile(projectRoot: string, path: string): Promise<FileFingerprint> {
  const text = await readFile(path, 'utf8');
  return {
    path: relative(projectRoot, path).split(sep).join('/'),
    hash: createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}
