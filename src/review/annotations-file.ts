import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RunStoreError } from '../store/index.js';
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

/**
 * Every label line of a run, oldest first; none when the run has no file. Only a torn last line
 * (a kill mid-write: no newline after it, never confirmed to its reviewer) is skipped; any other
 * line that is not a label (a hand edit, a merge-conflict marker) is an error naming its line, since
 * dropping it would change the agreement figures without a word.
 */
export async function readAnnotations(runDir: string): Promise<AnnotationLine[]> {
  const path = join(runDir, ANNOTATIONS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines: AnnotationLine[] = [];
  const raws = text.split('\n');
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i] as string;
    if (raw.trim() === '') continue;
    const torn = i === raws.length - 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      if (torn) continue;
      throw badLine(path, i + 1, 'not JSON');
    }
    const problem = labelProblem(parsed);
    if (problem !== undefined) {
      if (torn) continue;
      throw badLine(path, i + 1, problem);
    }
    lines.push(parsed as AnnotationLine);
  }
  return lines;
}

/** What makes a parsed line not a label line, or undefined. */
function labelProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const line = value as Record<string, unknown>;
  for (const key of ['row', 'outputHash', 'eval', 'reviewer', 'at'] as const) if (typeof line[key] !== 'string') return `"${key}" is not a string`;
  for (const key of ['index', 'repeat'] as const) if (!Number.isInteger(line[key])) return `"${key}" is not a whole number`;
  if (line.cleared !== true && line.value === undefined) return 'it has no "value" and is not "cleared"';
  return undefined;
}

function badLine(file: string, line: number, problem: string): RunStoreError {
  return new RunStoreError('STORE_BAD_ANNOTATIONS', `this line is not a label: ${problem}`, {
    location: { file, line },
    hint: 'labels are written one JSON line each by `agentmark annotate` and the viewer: restore the line or remove it',
  });
}
