import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { batchFrom, batchOfLines, batchUpTo, lineStart, wholeLineBatches, type LineBatch } from '../../src/store/line-batch.js';
import { lineKeys } from '../../src/store/line-keys.js';
import { onTempDir } from './fixtures.js';

/** The batch's lines decoded, for comparing (the code under test never decodes them). */
const linesOf = (batch: LineBatch): string[] => Array.from({ length: batch.count }, (_, k) => batch.bytes.toString('utf8', lineStart(batch, k), batch.ends[k]));

let dir = '';
onTempDir((made) => {
  dir = made;
});

async function collect(path: string, from = 0, maxLines = 10_000): Promise<Array<{ first: number; lines: string[]; bytes: string }>> {
  const out = [];
  for await (const batch of wholeLineBatches(path, from, maxLines)) out.push({ first: batch.first, lines: linesOf(batch), bytes: batch.bytes.toString('utf8') });
  return out;
}

describe('wholeLineBatches', () => {
  test('whole lines as bytes in batches of maxLines (the last fewer), each batch exactly its lines with their newlines; a torn last line is left out', async () => {
    const path = join(dir, 'results.jsonl');
    await writeFile(path, 'a\nbb\n\nccc\né日🙂\ntorn');
    expect(await collect(path, 0, 2)).toEqual([
      { first: 0, lines: ['a', 'bb'], bytes: 'a\nbb\n' },
      { first: 2, lines: ['', 'ccc'], bytes: '\nccc\n' },
      { first: 4, lines: ['é日🙂'], bytes: 'é日🙂\n' },
    ]);
    expect(await collect(path, 3, 2)).toEqual([
      { first: 3, lines: ['ccc', 'é日🙂'], bytes: 'ccc\né日🙂\n' },
    ]);
    expect(await collect(join(dir, 'none.jsonl'))).toEqual([]);
  });

  test('lines cut by the 4 MB reads (10 KB lines, a multi-byte character across a read) come out whole, in batches of maxLines across reads', async () => {
    const path = join(dir, 'results.jsonl');
    // 1,000 lines of ~10 KB (~10 MB, three reads), each ending in multi-byte text so some read ends mid-character.
    const lines = Array.from({ length: 1_000 }, (_, k) => `{"index":${k},"output":"${'x'.repeat(10_000 + (k % 7))}日本🙂"}`);
    await writeFile(path, `${lines.join('\n')}\n`);
    const batches = await collect(path, 0, 300);
    expect(batches.map((b) => [b.first, b.lines.length])).toEqual([[0, 300], [300, 300], [600, 300], [900, 100]]);
    expect(batches.flatMap((b) => b.lines)).toEqual(lines);
    expect(batches.map((b) => b.bytes).join('')).toBe(`${lines.join('\n')}\n`);
    const skipped = await collect(path, 450, 300);
    expect(skipped.map((b) => [b.first, b.lines.length])).toEqual([[450, 300], [750, 250]]);
    expect(skipped.flatMap((b) => b.lines)).toEqual(lines.slice(450));
  });
});

describe('batches of strings and their parts', () => {
  test('batchOfLines keeps a newline inside a line in it; batchFrom and batchUpTo cut at lines, bytes included', () => {
    const batch = batchOfLines(['{"index":0}', 'two\nlines', 'é'], 5, 'f');
    expect(linesOf(batch)).toEqual(['{"index":0}', 'two\nlines', 'é']);
    expect(batch.bytes.toString()).toBe('{"index":0}\ntwo\nlines\né\n');
    const tail = batchFrom(batch, 1);
    expect([tail.first, linesOf(tail), tail.bytes.toString()]).toEqual([6, ['two\nlines', 'é'], 'two\nlines\né\n']);
    const head = batchUpTo(tail, 1);
    expect([head.first, linesOf(head), head.bytes.toString()]).toEqual([6, ['two\nlines'], 'two\nlines\n']);
  });

  test('lineKeys reads (index, repeat) from the runner\'s rows and parses others; a line that is not a row names the file and its line', () => {
    const batch = batchOfLines(['{"index":3,"line":4,"repeat":1,"output":"a"}', '{"repeat":2,"index":7}'], 10, 'runs/r/results.jsonl');
    const keys = lineKeys(batch);
    expect([[...keys.index], [...keys.repeat]]).toEqual([[3, 7], [1, 2]]);
    expect(() => lineKeys(batchOfLines(['{"index":1,"repeat":0}', 'not json'], 10, 'runs/r/results.jsonl'))).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT_RESULTS', message: 'line 12 is not a result row', location: { file: 'runs/r/results.jsonl', line: 12 } }),
    );
  });
});
