import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANNOTATIONS_FILE, readAnnotations } from '../review/annotations-file.js';
import type { RunStorage } from '../store/index.js';

/** The store's label lines of run `id` written into its copy `dir`; returns how many there are. */
export async function writeStoreLabels(storage: RunStorage, id: string, dir: string): Promise<number> {
  const lines = await storage.readAnnotations(id);
  await writeFile(join(dir, ANNOTATIONS_FILE), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return lines.length;
}

/** Sends the store the labels the viewer appended to the copy `dir` after the first `known`. */
export async function pushCopyLabels(storage: RunStorage, id: string, dir: string, known: number): Promise<void> {
  const lines = await readAnnotations(dir);
  if (lines.length > known) await storage.appendAnnotations(id, lines.slice(known));
}
