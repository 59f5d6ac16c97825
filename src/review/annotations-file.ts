import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnnotationLine } from './types.js';

export const ANNOTATIONS_FILE = 'annotations.jsonl';

/**
 * Appends labels to a run's `annotations.jsonl` in one write with O_APPEND, so two reviewers
 * (or two processes) labelling at once both land whole, in some order. `results.jsonl` is never
 * touched.
 */
export async function appendAnnotations(runDir: string, lines: readonly AnnotationLine[]): Promise<void> {
  if (lines.length === 0) return;
  await appendFile(join(runDir, ANNOTATIONS_FILE), lines.map((line) => `${JSON.stringify(line)}\n`).join(''), { flag: 'a' });
}

/** Every label line of a run, oldest first; none when the run has no file. A torn last line is skipped. */
export async function readAnnotations(runDir: string): Promise<AnnotationLine[]> {
  let text: string;
  try {
    text = await readFile(join(runDir, ANNOTATIONS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines: AnnotationLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      lines.push(JSON.parse(raw) as AnnotationLine);
    } catch {
      // a line torn by a kill mid-write: the label it held was never confirmed to its reviewer
    }
  }
  return lines;
}
