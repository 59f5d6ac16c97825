import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RowOffsets } from '../../src/store/row-offsets.js';
import { scanResults } from '../../src/store/scan-results.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentmark-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const row = (index: number, repeat = 0, extra = ''): string => JSON.stringify({ index, line: index + 1, repeat, output: `answer ${index}${extra}` });

describe('scanResults', () => {
  it('finds every row, in dataset order, and hashes the complete lines (blank ones too; a torn tail left out)', async () => {
    const long = 'x'.repeat(3 << 20); // a line longer than the 1 MB read
    const lines = [row(2), '', row(0, 1), '  ', row(1, 0, long), '{"repeat":0,"index":3,"line":4}\r', row(0)];
    const complete = `${lines.join('\n')}\n`;
    const path = join(dir, 'results.jsonl');
    await writeFile(path, `${complete}{"index":9,"li`);
    const found = await scanResults(path);
    expect({ rows: found.rows, sha256: found.sha256, missing: found.missing, torn: found.torn }).toEqual({ rows: 5, sha256: sha256(complete), missing: false, torn: true });
    const text = complete;
    const starts = [...found.offsets.inOrder()].map(([start, length]) => JSON.parse(text.slice(start, start + length)) as { index: number; repeat: number });
    // Offsets are bytes; the text is ASCII, so they are characters too.
    expect(starts.map((r) => [r.index, r.repeat])).toEqual([[0, 0], [0, 1], [1, 0], [2, 0], [3, 0]]);
  });

  it('names the line that is not a row', async () => {
    const path = join(dir, 'results.jsonl');
    await writeFile(path, `${row(0)}\n${row(1)}\n{"not":"a row"}\n${row(2)}\n`);
    await expect(scanResults(path)).rejects.toMatchObject({ code: 'STORE_CORRUPT_RESULTS', message: expect.stringContaining('line 3 is not a result row') as unknown });
  });

  it('says a missing file is missing', async () => {
    const found = await scanResults(join(dir, 'nothing.jsonl'));
    expect({ rows: found.rows, missing: found.missing, torn: found.torn, size: found.offsets.size }).toEqual({ rows: 0, missing: true, torn: false, size: 0 });
  });

  it('reads rows across many chunk boundaries with multi-byte characters', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => row(19_999 - i, 0, ' é😀'.repeat(i % 7)));
    const text = `${lines.join('\n')}\n`;
    const path = join(dir, 'results.jsonl');
    await writeFile(path, text);
    const found = await scanResults(path);
    expect(found.rows).toBe(20_000);
    expect(found.sha256).toBe(sha256(text));
    const bytes = Buffer.from(text);
    const indexes = [...found.offsets.inOrder()].map(([start, length]) => (JSON.parse(bytes.toString('utf8', start, start + length)) as { index: number }).index);
    expect(indexes).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
  });
});

describe('RowOffsets order', () => {
  it('sorts by index then repeat, ties in the order added, and finds a duplicate', () => {
    let state = 7;
    const next = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
    const offsets = new RowOffsets();
    const added: Array<[number, number, number]> = [];
    for (let i = 0; i < 5000; i += 1) {
      const entry: [number, number, number] = [Math.floor(next() * 3000), Math.floor(next() * 3), i];
      added.push(entry);
      offsets.add(entry[0], entry[1], i, 1);
    }
    const expected = [...added].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((e) => e[2]);
    expect([...offsets.inOrder()].map(([start]) => start)).toEqual(expected);
    const first = [...added].sort((a, b) => a[0] - b[0] || a[1] - b[1]).find((e, i, all) => i > 0 && all[i - 1]?.[0] === e[0] && all[i - 1]?.[1] === e[1]);
    expect(offsets.duplicate()).toEqual(first ? [first[0], first[1]] : undefined);
    // Added after a sort: the order is made again.
    offsets.add(-1, 0, 99_999, 1);
    expect([...offsets.inOrder()][0]).toEqual([99_999, 1]);
  });
});
