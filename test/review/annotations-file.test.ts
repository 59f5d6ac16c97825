import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANNOTATIONS_FILE, appendAnnotations, readAnnotations } from '../../src/review/annotations-file.js';
import type { AnnotationLine } from '../../src/review/types.js';

const label = (index: number): AnnotationLine => ({ row: `r${index}`, index, repeat: 0, outputHash: 'h', eval: 'polite', value: true, reviewer: 'ana', at: '2026-12-01T12:00:00.000Z' });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-annotations-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('readAnnotations', () => {
  it('skips only a torn last line (no newline after it): the label a kill cut was never confirmed', async () => {
    await appendAnnotations(dir, [label(0), label(1)]);
    await writeFile(join(dir, ANNOTATIONS_FILE), `${JSON.stringify(label(0))}\n${JSON.stringify(label(1))}\n{"row":"r2","ind`);
    expect((await readAnnotations(dir)).map((line) => line.index)).toEqual([0, 1]);
  });

  it('a line inside the file that is not a label is an error naming its line, not a label dropped without a word', async () => {
    await writeFile(join(dir, ANNOTATIONS_FILE), `${JSON.stringify(label(0))}\n<<<<<<< HEAD\n${JSON.stringify(label(1))}\n`);
    await expect(readAnnotations(dir)).rejects.toMatchObject({
      code: 'STORE_BAD_ANNOTATIONS',
      message: 'this line is not a label: not JSON',
      location: { file: join(dir, ANNOTATIONS_FILE), line: 2 },
    });
    const { index: _dropped, ...noIndex } = label(1);
    await writeFile(join(dir, ANNOTATIONS_FILE), `${JSON.stringify(label(0))}\n${JSON.stringify(noIndex)}\n`);
    await expect(readAnnotations(dir)).rejects.toMatchObject({ message: 'this line is not a label: "index" is not a whole number', location: { line: 2 } });
  });

  it('reads a cleared line, which has no value', async () => {
    const { value: _value, ...cleared } = label(0);
    await appendAnnotations(dir, [label(0), { ...cleared, cleared: true }]);
    expect((await readAnnotations(dir)).map((line) => line.cleared ?? false)).toEqual([false, true]);
  });
});
