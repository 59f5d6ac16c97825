import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { RunStoreError } from '../store/store-error.js';
import { storeWriteError } from '../store/write-error.js';
import { withAnnotationsLock } from './annotations-lock.js';
import type { AnnotationLine } from './types.js';

export const ANNOTATIONS_FILE = 'annotations.jsonl';

/**
 * Appends labels to a run's `annotations.jsonl`, whole lines only, one writer at a time (see
 * withAnnotationsLock): an import of thousands of lines cannot interleave with a viewer's label,
 * as Node writes a large buffer in several write(2) calls. A torn last line left by a writer that
 * was killed, or ran out of space, mid-append is repaired first (completed when it is a whole label
 * short of its newline, else cut), so the new lines start on a fresh line; a write that fails is
 * cut back, so a label that answered an error was not written. `results.jsonl` is never touched.
 */
export async function appendAnnotations(runDir: string, lines: readonly AnnotationLine[]): Promise<void> {
  if (lines.length === 0) return;
  const path = join(runDir, ANNOTATIONS_FILE);
  const data = Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  try {
    await withAnnotationsLock(runDir, () => appendWhole(path, data));
  } catch (error) {
    throw storeWriteError(error, path);
  }
}

async function appendWhole(path: string, data: Buffer): Promise<void> {
  // a+: appends, and lets the tail be read and cut.
  const file = await open(path, 'a+');
  try {
    const size = (await file.stat()).size;
    const end = await repairTail(file, size);
    try {
      for (let written = 0; written < data.length; ) written += (await file.write(data, written)).bytesWritten;
    } catch (error) {
      await file.truncate(end).catch(() => undefined);
      throw error;
    }
  } finally {
    await file.close();
  }
}

/** Makes the file end at a line's end, and returns its size then. */
async function repairTail(file: FileHandle, size: number): Promise<number> {
  let lineStart = size;
  const chunk = Buffer.alloc(Math.min(size, 1 << 16));
  // Back from the end to the last newline: a torn line may be long (a cut import).
  while (lineStart > 0) {
    const from = Math.max(0, lineStart - chunk.length);
    const { bytesRead } = await file.read(chunk, 0, lineStart - from, from);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl !== -1) {
      lineStart = from + nl + 1;
      break;
    }
    lineStart = from;
  }
  if (lineStart === size) return size;
  const tail = Buffer.alloc(size - lineStart);
  await file.read(tail, 0, tail.length, lineStart);
  // A whole label short of its newline is what readers count already: complete it, never drop it.
  if (isLabel(tail.toString('utf8'))) {
    await file.write('\n');
    return size + 1;
  }
  await file.truncate(lineStart);
  return lineStart;
}

function isLabel(text: string): boolean {
  try {
    return labelProblem(JSON.parse(text)) === undefined;
  } catch {
    return false;
  }
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
