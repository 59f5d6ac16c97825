import { appendFile, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { UsageError } from '../../src/errors/index.js';
import { RunStore, RunStoreError, openRunFolder } from '../../src/store/index.js';
import { manifest, row, onTempDir } from './fixtures.js';

let root: string;
let store: RunStore;
onTempDir((dir) => {
  root = dir;
  store = new RunStore(dir);
});

async function collect(rows: AsyncIterable<RowResult>): Promise<RowResult[]> {
  const list: RowResult[] = [];
  for await (const item of rows) list.push(item);
  return list;
}

const ID = '20261130-031500-ab12cd';
const resultsPath = (id = ID): string => join(root, '.agentmark', 'runs', id, 'results.jsonl');

describe('create, append, read', () => {
  test('writes the manifest and one JSON line per row', async () => {
    const handle = await store.create(manifest(ID));
    expect(handle.dir).toBe(join(root, '.agentmark', 'runs', ID));
    handle.append(row(1));
    handle.append(row(0));
    // Appended rows are in the file once `written` resolves (at the end of this turn).
    await handle.written();
    expect(await readFile(resultsPath(), 'utf8')).toBe(`${JSON.stringify(row(1))}\n${JSON.stringify(row(0))}\n`);
    await handle.updateManifest({ status: 'completed', endedAt: '2026-11-30T03:16:00.000Z' });
    await handle.close();

    const stored = JSON.parse(await readFile(join(handle.dir, 'manifest.json'), 'utf8')) as unknown;
    expect(stored).toEqual({ ...manifest(ID), status: 'completed', endedAt: '2026-11-30T03:16:00.000Z' });
    expect(await store.manifest(ID)).toEqual(stored);
    expect(await collect(store.readResults(ID))).toEqual([row(1), row(0)]);
    // The atomic writes leave no temporary files behind; the viewer's index of the rows is complete.
    expect((await readdir(handle.dir)).sort()).toEqual(['manifest.json', 'results.jsonl', 'view-index']);
    expect((await readdir(join(handle.dir, 'view-index'))).sort()).toEqual(['cost', 'flags', 'index', 'label-0', 'latency', 'lengths', 'meta.json', 'repeat', 'score-0', 'starts', 'verdicts']);
  });

  test('rowsInOrder reads every row back in dataset order, a fresh pass each time, also after close', async () => {
    const handle = await store.create(manifest(ID));
    const wide = row(2, 0, { output: `${'é'.repeat(40_000)} wide` });
    for (const item of [row(3), wide, row(0, 1), row(0), row(1)]) handle.append(item);
    const expected = [row(0), row(0, 1), row(1), wide, row(3)];
    expect(await collect(handle.rowsInOrder())).toEqual(expected);
    await handle.close();
    expect(await collect(handle.rowsInOrder())).toEqual(expected);
  });

  test('rowsInOrder refuses a results file another process rewrote', async () => {
    const handle = await store.create(manifest(ID));
    handle.append(row(0));
    await handle.close();
    await writeFile(resultsPath(), `{"not":"a row"}\n${JSON.stringify(row(0))}\n`);
    const error = await collect(handle.rowsInOrder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStoreError);
    expect((error as RunStoreError).code).toBe('STORE_CORRUPT_RESULTS');
  });

  test('manifest updates land in call order', async () => {
    const handle = await store.create(manifest(ID));
    const writes = [handle.updateManifest({ status: 'running' }), handle.updateManifest({ status: 'failed' })];
    await Promise.all(writes);
    expect((await store.manifest(ID)).status).toBe('failed');
    await handle.close();
  });

  test('appending after close is an error, not a silent loss', async () => {
    const handle = await store.create(manifest(ID));
    await handle.close();
    await handle.close();
    expect(() => handle.append(row(0))).toThrow(RunStoreError);
  });

  test('an existing id is refused', async () => {
    await (await store.create(manifest(ID))).close();
    await expect(store.create(manifest(ID))).rejects.toMatchObject({ code: 'STORE_RUN_EXISTS' });
    await expect(store.create(manifest('../escape'))).rejects.toMatchObject({ code: 'STORE_BAD_RUN_ID' });
  });

  test('many rows finishing at once from one process keep their lines whole', async () => {
    const handle = await store.create(manifest(ID));
    const big = 'x'.repeat(200_000);
    await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        // Interleave by event-loop turns (0–6), not by the clock.
        for (let turn = 0; turn < index % 7; turn++) await new Promise((resolve) => setImmediate(resolve));
        handle.append(row(index, 0, { output: `${index}:${big}` }));
      }),
    );
    await handle.close();
    const text = await readFile(resultsPath(), 'utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(200);
    const indexes = lines.map((line) => {
      const parsed = JSON.parse(line) as RowResult;
      expect(parsed.output).toBe(`${parsed.index}:${big}`);
      return parsed.index;
    });
    expect(new Set(indexes).size).toBe(200);
  });

  // How fast they go is the bench's (scale: 100,000 and 1,000,000 rows through the run store).
  test('100,000 appends in one go are all written and read back in order', async () => {
    const handle = await store.create(manifest(ID));
    const sample = row(0);
    for (let index = 0; index < 100_000; index++) handle.append({ ...sample, index });
    await handle.close();
    let count = 0;
    let inOrder = true;
    for await (const stored of store.readResults(ID)) {
      if (stored.index !== count) inOrder = false;
      count += 1;
    }
    expect(count).toBe(100_000);
    expect(inOrder).toBe(true);
  });
});

describe('open for resume', () => {
  test('drops a torn last line and appends continue on a clean line', async () => {
    const handle = await store.create(manifest(ID));
    handle.append(row(0));
    handle.append(row(1));
    handle.append(row(0, 1));
    await handle.close();
    const whole = await readFile(resultsPath(), 'utf8');
    // A process killed mid-write leaves part of a line, without its newline.
    await appendFile(resultsPath(), JSON.stringify(row(1, 1)).slice(0, 40));

    // Reading alone never changes the file, and skips the torn line.
    expect(await collect(store.readResults(ID))).toEqual([row(0), row(1), row(0, 1)]);

    const opened = await store.open(ID);
    expect(opened.droppedTornLine).toBe(true);
    expect(opened.rowCount).toBe(3);
    expect(opened.done.size).toBe(3);
    expect([opened.done.has(0, 0), opened.done.has(1, 0), opened.done.has(0, 1), opened.done.has(1, 1)]).toEqual([true, true, true, false]);
    expect(opened.manifest).toEqual(manifest(ID));
    expect(await readFile(resultsPath(), 'utf8')).toBe(whole);

    opened.handle.append(row(1, 1));
    await opened.handle.close();
    expect(await collect(store.readResults(ID))).toEqual([row(0), row(1), row(0, 1), row(1, 1)]);
    expect(await collect((await store.open(ID)).rows())).toHaveLength(4);
    // The reopened handle knows where the earlier attempt's rows are, so a report lists all four.
    expect(await collect(opened.handle.rowsInOrder())).toEqual([row(0), row(0, 1), row(1), row(1, 1)]);
  });

  test('drops an unparseable last line even when it ends in a newline', async () => {
    const handle = await store.create(manifest(ID));
    handle.append(row(0));
    await handle.close();
    const whole = await readFile(resultsPath(), 'utf8');
    await appendFile(resultsPath(), '{"index":1,"rep\n');
    const opened = await store.open(ID);
    expect(opened.droppedTornLine).toBe(true);
    expect(opened.rowCount).toBe(1);
    await opened.handle.close();
    expect(await readFile(resultsPath(), 'utf8')).toBe(whole);
  });

  test('a clean file is left alone', async () => {
    const handle = await store.create(manifest(ID));
    handle.append(row(0));
    await handle.close();
    const { size } = await stat(resultsPath());
    const opened = await store.open(ID);
    await opened.handle.close();
    expect(opened.droppedTornLine).toBe(false);
    expect((await stat(resultsPath())).size).toBe(size);
  });

  test('a bad line with rows after it is reported, not skipped', async () => {
    const handle = await store.create(manifest(ID));
    handle.append(row(0));
    await handle.close();
    await appendFile(resultsPath(), `not json\n${JSON.stringify(row(1))}\n`);
    const error = await store.open(ID).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ code: 'STORE_CORRUPT_RESULTS', location: { file: resultsPath(), line: 2 } });
  });

  test('a run killed before its results file existed resumes with nothing done', async () => {
    const handle = await store.create(manifest(ID));
    await handle.close();
    await rm(resultsPath());
    const opened = await store.open(ID);
    expect(opened.done.size).toBe(0);
    opened.handle.append(row(0));
    await opened.handle.close();
    expect(await collect(store.readResults(ID))).toEqual([row(0)]);
  });
});

describe('list and unknown ids', () => {
  test('lists runs newest first and skips folders without a manifest', async () => {
    for (const id of ['20261129-100000-aaaaaa', '20261130-090000-bbbbbb', '20261130-080000-cccccc']) {
      await (await store.create(manifest(id))).close();
    }
    await mkdir(join(store.runsDir, '20261201-000000-dddddd'));
    await writeFile(join(store.runsDir, 'notes.txt'), 'not a run');
    expect((await store.list()).map((run) => run.id)).toEqual([
      '20261130-090000-bbbbbb',
      '20261130-080000-cccccc',
      '20261129-100000-aaaaaa',
    ]);
    expect((await store.list(1)).map((run) => run.id)).toEqual(['20261130-090000-bbbbbb']);
  });

  test('no runs folder yet: an empty list', async () => {
    expect(await store.list()).toEqual([]);
  });

  test('an unknown id is a usage error listing the most recent ids', async () => {
    for (let hour = 10; hour < 17; hour++) await (await store.create(manifest(`20261130-${hour}0000-abcdef`))).close();
    const error = await store.open('20261130-999999-zzzzzz').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      code: 'USAGE_UNKNOWN_RUN',
      message: 'unknown run "20261130-999999-zzzzzz"',
      hint:
        'recent runs: 20261130-160000-abcdef, 20261130-150000-abcdef, 20261130-140000-abcdef, ' +
        '20261130-130000-abcdef, 20261130-120000-abcdef',
    });
    await expect(collect(store.readResults('nope'))).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_RUN' });
    await expect(store.manifest('../../etc')).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_RUN' });
  });

  test('a near miss is suggested', async () => {
    await (await store.create(manifest(ID))).close();
    await expect(store.manifest('20261130-031500-ab12ce')).rejects.toMatchObject({
      hint: `did you mean "${ID}"?; recent runs: ${ID}`,
    });
  });

  test('no runs at all says so', async () => {
    await expect(store.manifest('x')).rejects.toMatchObject({
      hint: `no runs yet in ${join(root, '.agentmark', 'runs')}`,
    });
  });
});

describe('manifests written before the eval counts were renamed', () => {
  test('passCount / passed per eval are read as verdictCount / passedCount, everywhere a manifest is read', async () => {
    const handle = await store.create(manifest(ID));
    await handle.close();
    const old = {
      ...manifest(ID),
      status: 'completed',
      summary: {
        rows: 2, errored: 0, cached: 0, pregenerated: 0, latencyMs: {}, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, flaky: [], gates: [], passed: false,
        evals: [{ name: 'ok', count: 2, errored: 0, passCount: 2, passed: 1, passRate: 0.5 }],
      },
    };
    await writeFile(join(handle.dir, 'manifest.json'), JSON.stringify(old));
    const expected = { name: 'ok', count: 2, errored: 0, verdictCount: 2, passedCount: 1, passRate: 0.5 };
    expect((await store.manifest(ID)).summary?.evals).toEqual([expected]);
    expect((await store.list())[0]?.summary?.evals).toEqual([expected]);
    expect((await openRunFolder(handle.dir)).manifest.summary?.evals).toEqual([expected]);
    // The run's own verdict keeps its name.
    expect((await store.manifest(ID)).summary?.passed).toBe(false);
  });
});
