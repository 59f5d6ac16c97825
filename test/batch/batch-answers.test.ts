import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { outputFile, readAnswers } from '../../src/batch/batch-answers.js';
import type { BatchJobRecord } from '../../src/batch/index.js';
import { makeTempDir } from '../project/temp-dir.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const ok = (id: string, text: string): string =>
  JSON.stringify({ id: `batch_req_${id}`, custom_id: id, response: { status_code: 200, body: { choices: [{ message: { role: 'assistant', content: text } }] } }, error: null });
const failed = (id: string): string => JSON.stringify({ id: `batch_req_${id}`, custom_id: id, response: { status_code: 500, body: { error: { message: 'server error' } } }, error: null });

async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

describe('readAnswers', () => {
  it('reads each answer from its line when asked; a later success wins over a failure, never the reverse', async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    const jobs: BatchJobRecord[] = [{ part: 0, requests: 3, bytes: 1, downloaded: true }];
    await writeLines(outputFile(temp.dir, 0, 'output'), 4, (i) => [failed('row-0-0'), ok('row-1-0', 'é one'), ok('row-0-0', 'zero'), ok('row-2-0', 'two')][i] as string);
    await writeLines(outputFile(temp.dir, 0, 'errors'), 2, (i) => [failed('row-1-0'), failed('row-3-0')][i] as string);
    const answers = await readAnswers(temp.dir, jobs);
    expect(answers.size).toBe(4);
    expect(answers.get('row-0-0')).toEqual({ ok: true, body: { choices: [{ message: { role: 'assistant', content: 'zero' } }] } });
    expect(answers.get('row-1-0')).toEqual({ ok: true, body: { choices: [{ message: { role: 'assistant', content: 'é one' } }] } });
    expect(answers.get('row-3-0')).toEqual({ ok: false, code: 'http_500', reason: 'HTTP 500 server error' });
    expect(answers.get('row-9-0')).toBeUndefined();
    // Whether an answer succeeded is known without reading its line (a cached judge hit asks it).
    expect(['row-0-0', 'row-1-0', 'row-3-0', 'row-9-0'].map((id) => answers.isOk(id))).toEqual([true, true, false, false]);
  });

  it('keeps where 50,000 answers of 1 KB are, not the answers: far less than the 50 MB they fill', async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    const rows = 50_000;
    const pad = 'x'.repeat(1000);
    await writeLines(outputFile(temp.dir, 0, 'output'), rows, (i) => ok(`row-${i}-0`, `${i} ${pad}`));
    gc();
    const before = process.memoryUsage();
    const answers = await readAnswers(temp.dir, [{ part: 0, requests: rows, bytes: 1, downloaded: true }]);
    gc();
    const after = process.memoryUsage();
    expect(answers.size).toBe(rows);
    // The ids' map and 16 bytes a line: ~5 MB; the answers themselves would be over 50 MB.
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(12 * 1024 * 1024);
    expect(answers.get(`row-${rows - 1}-0`)).toMatchObject({ ok: true, body: { choices: [{ message: { content: `${rows - 1} ${pad}` } }] } });
  }, 60_000);
});
