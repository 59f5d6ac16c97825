import { mkdir, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { UsageError } from '../errors/index.js';

/**
 * Writes the files into `dir`, refusing before writing anything when one already exists,
 * unless `force`. Returns the paths written, in order.
 */
export async function writeImportedFiles(dir: string, files: ReadonlyMap<string, string>, options: { force: boolean; shownDir: string }): Promise<string[]> {
  const existing: string[] = [];
  for (const file of files.keys()) {
    if (await exists(path.join(dir, file))) existing.push(options.shownDir === '' ? file : path.join(options.shownDir, file));
  }
  if (existing.length > 0 && !options.force) {
    throw new UsageError('USAGE_IMPORT_EXISTS', `not overwriting what is already there: ${existing.join(', ')}`, {
      hint: 'import into a new folder (-o my-evals), or add --force to overwrite these files',
    });
  }
  for (const [file, text] of files) {
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return [...files.keys()];
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
