import { rename, rm, writeFile } from 'node:fs/promises';

let counter = 0;

/**
 * Writes through a temporary file and a rename, so a reader (or a crash) sees either the old
 * file or the new one, never half of it. No fsync: we guard against killed processes, not
 * power loss, and fsync would slow every manifest update.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  counter += 1;
  const tmp = `${path}.${process.pid}.${counter}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    // A failed write through the file handle (ENOSPC, EDQUOT, EFBIG) names no file: this one is
    // the file, so that the error is said as a write failure of it (storeWriteError), not a bug.
    if (error instanceof Error && (error as NodeJS.ErrnoException).path === undefined) (error as NodeJS.ErrnoException).path = path;
    throw error;
  }
}
