import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { wholeLinesFrom } from '../../src/store/local/whole-lines.js';
import { onTempDir } from './fixtures.js';

let dir = '';
onTempDir((made) => {
  dir = made;
});

async function read(path: string, start: number, skip = 0): Promise<Array<{ text: string; end: number }>> {
  const out: Array<{ text: string; end: number }> = [];
  for await (const line of wholeLinesFrom(path, start, skip)) out.push(line);
  return out;
}

test('a growing file is followed from the end of the last whole line read: each line once, a torn one when it is whole', async () => {
  const path = join(dir, 'results.jsonl');
  // "é" is two bytes: offsets count bytes, not characters.
  await writeFile(path, 'a\nbé\ntor');
  expect(await read(path, 0)).toEqual([
    { text: 'a', end: 2 },
    { text: 'bé', end: 6 },
  ]);
  await appendFile(path, 'n\nd\n');
  expect(await read(path, 6)).toEqual([
    { text: 'torn', end: 11 },
    { text: 'd', end: 13 },
  ]);
  expect(await read(path, 13)).toEqual([]);
  // A resume knows how many lines the store has, not where they end: they are skipped once.
  expect(await read(path, 0, 3)).toEqual([{ text: 'd', end: 13 }]);
  expect(await read(join(dir, 'missing.jsonl'), 0)).toEqual([]);
});
