import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/index.js';
import type { ExperimentOutcome, RowResult } from '../../src/experiment/index.js';
import { mergeShards } from '../../src/shard/index.js';
import { openRunFolder, type RunManifest } from '../../src/store/index.js';
import { answer, text } from '../model/mock-model.js';
import { fixture, promptFile, type Fixture } from '../experiment/setup.js';

/**
 * 40 words. The model echoes most; it shouts every fifth (`exact` fails), errors on w13, and on
 * every seventh answers alternately right and wrong, so with --repeat 2 those rows are flaky.
 * Per word, not per call order, so the sharded and the unsharded runs get the same answers.
 */
function scriptedModel(): MockLanguageModelV3 {
  const calls = new Map<string, number>();
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const last = [...options.prompt].reverse().find((message) => message.role === 'user');
      const parts = last && Array.isArray(last.content) ? last.content : [];
      const word = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const n = Number(word.slice(1));
      const k = calls.get(word) ?? 0;
      calls.set(word, k + 1);
      if (n === 13) throw new Error('the model fell over');
      const shout = n % 5 === 0 || (n % 7 === 0 && k % 2 === 1);
      return answer(text(shout ? word.toUpperCase() : word), 'stop', { input: 10 + n, output: 3 + (n % 4) });
    },
  });
}

const WORDS = Array.from({ length: 40 }, (_, i) => `w${i}`);
const files = {
  'prompts/echo.prompt.mdx': promptFile({ extra: 'test_settings_placeholder' }).replace(
    /test_settings_placeholder\ntest_settings:\n/,
    'test_settings:\n  score_thresholds: { exact: 0.5 }\n',
  ),
  'datasets/words.jsonl': `${WORDS.map((word, i) => JSON.stringify({ input: { word }, expected_output: word, ...(i % 3 === 0 ? { topic: `t${i % 4}` } : {}) })).join('\n')}\n`,
};
const config = { prices: { 'mock/echo': { input: 0.3, output: 1.2 } } };

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

async function rowsOf(dir: string): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for await (const row of (await openRunFolder(dir)).rowsInOrder()) rows.push(row);
  return rows;
}

/**
 * What may differ between a merged run and the same run in one process: ids and timings (and
 * the concurrency, which only sets the pace: the shards here run at 4, so their rows finish out
 * of order, and the one-process run at 1, so its float sums are taken in dataset order as the
 * merge takes them).
 */
function comparable(manifest: RunManifest): Record<string, unknown> {
  const { id: _id, startedAt: _s, endedAt: _e, merged: _m, git: _g, summary, options, integrity, ...rest } = manifest;
  const { latencyMs: _l, ...stats } = summary ?? {};
  const { concurrency: _c, ...how } = options;
  // The hash is of the file's lines in their order: finish order in a run, dataset order in a merge.
  return { ...rest, options: how, summary: stats, rows: integrity?.rows };
}
const withoutTimings = ({ latencyMs: _l, endedAt: _e, ...row }: RowResult): Omit<RowResult, 'latencyMs' | 'endedAt'> => row;

describe('mergeShards', () => {
  it('4 shards merged equal the run made in one process, field for field apart from ids and timings', async () => {
    fx = await fixture(files, scriptedModel());
    const options = { repeat: 2, cacheMode: 'off' as const, maxRetries: 0 };
    const whole = await fx.run({ ...options, concurrency: 1 }, config);
    const shards: ExperimentOutcome[] = [];
    for (const index of [3, 1, 4, 2]) shards.push(await fx.run({ ...options, concurrency: 4, shard: { index, count: 4 } }, config));
    expect(shards.map((s) => s.summary.rows).reduce((a, b) => a + b)).toBe(80);
    expect(shards.every((s) => s.summary.rows > 0)).toBe(true);

    const merged = await mergeShards(shards.map((s) => s.runDir), { projectRoot: fx.dir });
    const wholeManifest = (await openRunFolder(whole.runDir)).manifest;
    expect(comparable(merged.manifest)).toEqual(comparable(wholeManifest));
    // What the summary holds, so the equality above is not of two empty things.
    const summary = merged.manifest.summary!;
    expect(summary).toMatchObject({ rows: 80, errored: 2, cached: 0, usage: { inputTokens: 2 * (39 * 10 + (780 - 13)), outputTokens: 2 * (39 * 3 + 60 - 1) } });
    // Flaky: the multiples of 7 that are not multiples of 5. Passed: 27 echoed words twice, plus
    // one of the two repeats of each of the 4 flaky rows; w13 errors twice.
    expect(summary.flaky.map((row) => row.index)).toEqual([7, 14, 21, 28]);
    // w13's two errored repeats did not pass: errored results of the eval and verdicts of its pass rate (issue 35).
    expect(summary.evals[0]).toMatchObject({ name: 'exact', count: 80, errored: 2, verdictCount: 80, passedCount: 2 * 27 + 4 });
    expect(summary.gates.map((gate) => [gate.name, gate.passed])).toEqual([['evals', false], ['errors', false], ['score:exact', true]]);
    expect(summary.latencyMs.p50).toBeTypeOf('number');
    expect(merged.manifest.merged).toEqual({
      count: 4,
      shards: [1, 2, 3, 4].map((index) => ({ index, id: shards[[3, 1, 4, 2].indexOf(index)]!.runId, rows: shards[[3, 1, 4, 2].indexOf(index)]!.summary.rows })),
      missing: [],
    });
    expect(merged.manifest.startedAt).toBe((await openRunFolder(shards[0]!.runDir)).manifest.startedAt);

    // The results file itself is in dataset order, and each row equals the one-process row.
    const lines = (await readFile(join(merged.dir, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as RowResult);
    expect(lines.map((row) => `${row.index}.${row.repeat}`)).toEqual(WORDS.flatMap((_, i) => [`${i}.0`, `${i}.1`]));
    expect(lines.map(withoutTimings)).toEqual((await rowsOf(whole.runDir)).map(withoutTimings));

    // It pairs with the one-process run like any run: every row, nothing changed.
    const comparison = await compareRuns(whole.runDir, merged.dir, { projectRoot: fx.dir });
    expect(comparison.pairing).toMatchObject({ paired: 40, onlyInBase: 0, onlyInHead: 0 });
    expect(comparison.differences).toEqual([]);
    expect(comparison.changedRows).toMatchObject({ regressed: 0, improved: 0, rows: [] });
  }, 60_000);
});

describe('mergeShards refuses runs that are not the shards of one run', () => {
  const quick = { cacheMode: 'off' as const, maxRetries: 0 };
  const shardRun = (index: number, count = 3, extra: Record<string, unknown> = {}) => fx!.run({ ...quick, shard: { index, count }, ...extra }, config);
  const refused = (dirs: string[], options: { allowPartial?: boolean; output?: string } = {}) => mergeShards(dirs, { projectRoot: fx!.dir, ...options });

  it('a missing shard, unless allowPartial, which records what is missing', async () => {
    fx = await fixture(files, scriptedModel());
    const [one, three] = [await shardRun(1), await shardRun(3)];
    await expect(refused([one.runDir, three.runDir])).rejects.toMatchObject({
      code: 'USAGE_SHARD_MISSING',
      message: `shard 2/3 is missing: got ${one.runId} (shard 1/3), ${three.runId} (shard 3/3)`,
    });
    const partial = await refused([three.runDir, one.runDir], { allowPartial: true });
    expect(partial.manifest.merged).toMatchObject({ count: 3, missing: [2], shards: [{ index: 1, id: one.runId }, { index: 3, id: three.runId }] });
    expect(partial.manifest.summary?.rows).toBe(one.summary.rows + three.summary.rows);
    const only = await refused([one.runDir], { allowPartial: true });
    expect(only.manifest.merged?.missing).toEqual([2, 3]);
    await expect(refused([one.runDir])).rejects.toThrow(/^shards 2\/3 and 3\/3 are missing: got /);
  }, 60_000);

  it('overlapping shards: the same shard twice, or shards of different counts', async () => {
    fx = await fixture(files, scriptedModel());
    const [a, b, again] = [await shardRun(1), await shardRun(2), await shardRun(2)];
    await expect(refused([a.runDir, b.runDir, again.runDir])).rejects.toMatchObject({
      code: 'USAGE_SHARD_OVERLAP',
      message: `overlapping shards: runs ${b.runId} (shard 2/3) and ${again.runId} (shard 2/3) are the same shard`,
    });
    await expect(refused([a.runDir, a.runDir])).rejects.toThrow(`overlapping shards: run ${a.runId} (shard 1/3) is given twice`);
    const ofFour = await shardRun(2, 4);
    await expect(refused([a.runDir, ofFour.runDir])).rejects.toMatchObject({
      code: 'USAGE_SHARD_MISMATCH',
      message: `these runs are not shards of one run: different number of shards: run ${a.runId} (shard 1/3) has 3, run ${ofFour.runId} (shard 2/4) has 4`,
    });
  }, 60_000);

  it('shards of different prompts, datasets, models or row selections; runs that are not shards or did not finish', async () => {
    fx = await fixture(files, scriptedModel());
    const one = await shardRun(1);
    const otherModel = await shardRun(2, 3, { model: 'mock/other' });
    await expect(refused([one.runDir, otherModel.runDir])).rejects.toThrow(
      `these runs are not shards of one run: different model: run ${one.runId} (shard 1/3) has mock/echo, run ${otherModel.runId} (shard 2/3) has mock/other`,
    );
    const otherRows = await shardRun(2, 3, { selection: { kind: 'rows', ranges: [[0, 9]] } });
    await expect(refused([one.runDir, otherRows.runDir])).rejects.toThrow(
      `different row selection: run ${one.runId} (shard 1/3) has {"kind":"all"}, run ${otherRows.runId} (shard 2/3) has {"kind":"rows","ranges":[[0,9]]}`,
    );
    const whole = await fx.run(quick, config);
    await expect(refused([one.runDir, whole.runDir])).rejects.toMatchObject({
      code: 'USAGE_NOT_A_SHARD',
      message: `run ${whole.runId} is not a shard: it was not run with --shard <i>/<n>`,
    });
    await writeFile(join(fx.dir, 'datasets/words.jsonl'), `${(await readFile(join(fx.dir, 'datasets/words.jsonl'), 'utf8'))}{"input":{"word":"w40"}}\n`);
    const otherData = await shardRun(2);
    await expect(refused([one.runDir, otherData.runDir])).rejects.toThrow(/different dataset: run .* has datasets\/words\.jsonl \([0-9a-f]{12}\), run .* has datasets\/words\.jsonl \([0-9a-f]{12}\)$/);
    await writeFile(join(fx.dir, 'prompts/echo.prompt.mdx'), files['prompts/echo.prompt.mdx'].replace('<User>{props.word}</User>', '<User>{props.word} please</User>'));
    const otherPrompt = await shardRun(2);
    await expect(refused([one.runDir, otherPrompt.runDir])).rejects.toThrow(/different prompt: run .* has prompts\/echo\.prompt\.mdx \(text [0-9a-f]{12}\)/);
    const manifestPath = join(one.runDir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as RunManifest;
    await writeFile(manifestPath, JSON.stringify({ ...manifest, status: 'interrupted' }));
    await expect(refused([one.runDir])).rejects.toMatchObject({
      code: 'USAGE_SHARD_NOT_FINISHED',
      message: `run ${one.runId} (shard 1/3) did not finish (status: interrupted)`,
      hint: `continue it with \`agentmark run-experiment <prompt> --shard 1/3 --resume ${one.runId}\`, then merge`,
    });
  }, 60_000);

  it('a results file that does not match its shard is refused, and the half-written merge is removed', async () => {
    fx = await fixture(files, scriptedModel());
    const shards = [await shardRun(1, 2), await shardRun(2, 2)];
    // Copy one row of shard 2 into shard 1's results: it is in both now, and in the wrong shard.
    const moved = (await readFile(join(shards[1]!.runDir, 'results.jsonl'), 'utf8')).split('\n')[0];
    await writeFile(join(shards[0]!.runDir, 'results.jsonl'), `${await readFile(join(shards[0]!.runDir, 'results.jsonl'), 'utf8')}${moved}\n`);
    // As a shard stored before runs recorded their row count would be (with it, the count is refused first).
    const manifestPath = join(shards[0]!.runDir, 'manifest.json');
    const { integrity: _i, ...old } = JSON.parse(await readFile(manifestPath, 'utf8')) as RunManifest;
    await writeFile(manifestPath, JSON.stringify(old));
    const out = join(fx.dir, 'merged');
    await expect(refused(shards.map((s) => s.runDir), { output: out })).rejects.toMatchObject({ code: 'USAGE_SHARD_OVERLAP' });
    await expect(readFile(join(out, 'manifest.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(join(fx.dir, 'notes.txt'), 'mine');
    await expect(refused(shards.map((s) => s.runDir), { output: '.' })).rejects.toMatchObject({ code: 'USAGE_OUTPUT_NOT_EMPTY' });
    expect(await readFile(join(fx.dir, 'notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  it('a shard line not in the runner\'s own shape is written again as the runner writes it; the merged integrity record is the sha256 of the merged file', async () => {
    fx = await fixture(files, scriptedModel());
    const shards = [await shardRun(1, 2), await shardRun(2, 2)];
    // Shard 1's rows spaced out and with CRLF endings, as an edited or foreign file might be
    // (stored without an integrity record, as older runs were, so the reader takes it).
    const path = join(shards[0]!.runDir, 'results.jsonl');
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    await writeFile(path, lines.map((line, i) => (i % 2 === 0 ? `${line.replace('{"index":', '{ "index": ')}\n` : `${line}\r\n`)).join(''));
    const manifestPath = join(shards[0]!.runDir, 'manifest.json');
    const { integrity: _i, ...old } = JSON.parse(await readFile(manifestPath, 'utf8')) as RunManifest;
    await writeFile(manifestPath, JSON.stringify(old));
    const merged = await mergeShards(shards.map((s) => s.runDir), { projectRoot: fx.dir });
    const text = await readFile(join(merged.dir, 'results.jsonl'), 'utf8');
    const rows = text.trim().split('\n');
    expect(rows).toHaveLength(WORDS.length);
    for (const line of rows) expect(line).toBe(JSON.stringify(JSON.parse(line)));
    expect(merged.manifest.integrity).toEqual({ rows: WORDS.length, sha256: createHash('sha256').update(text).digest('hex') });
  }, 60_000);
});
