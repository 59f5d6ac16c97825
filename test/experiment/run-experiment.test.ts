import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { EvalBindingError, UsageError } from '../../src/errors/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { echoModel, fixture, promptFile, wordsDataset, type Fixture } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

async function open(files: Record<string, string> = {}, model = echoModel()): Promise<{ fx: Fixture; model: ReturnType<typeof echoModel> }> {
  current = await fixture(files, model);
  return { fx: current, model };
}

const rowsOf = (fx: Fixture): RowResult[] =>
  fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : [])).sort((a, b) => a.index - b.index || a.repeat - b.repeat);

/** Entries in the response cache: one line each in its segment files. */
async function cacheEntries(dir: string): Promise<number> {
  const root = join(dir, '.agentmark', 'cache');
  let count = 0;
  for (const segment of await readdir(root).catch(() => [])) {
    count += (await readFile(join(root, segment), 'utf8')).split('\n').filter(Boolean).length;
  }
  return count;
}

describe('runExperiment (in-process, AI SDK mock model)', () => {
  it('runs every row, scores it, stores it, and emits events in order', async () => {
    const { fx, model } = await open();
    const outcome = await fx.run();
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(outcome.status).toBe('completed');
    expect(outcome.summary).toMatchObject({ rows: 3, errored: 0, cached: 0, passed: true });
    expect(rowsOf(fx).map((row) => [row.index, row.output, row.evals.exact?.passed])).toEqual([
      [0, 'alpha', true],
      [1, 'beta', true],
      [2, 'gamma', true],
    ]);
    const types = fx.events.map((event) => event.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(types.filter((type) => type === 'row-start')).toHaveLength(3);
    expect(types.filter((type) => type === 'eval-end')).toHaveLength(3);
    const stored = (await readFile(join(outcome.runDir, 'results.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(stored).toHaveLength(3);
    const manifest = JSON.parse(await readFile(join(outcome.runDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ status: 'completed', model: 'mock/echo', prompt: { path: 'prompts/echo.prompt.mdx' } });
  });

  it('passes the prompt settings through to the model', async () => {
    const { fx, model } = await open();
    await fx.run({ selection: { kind: 'rows', ranges: [[0, 0]] } });
    expect(model.doGenerateCalls[0]?.temperature).toBe(0.5);
  });

  it('--repeat N runs each row N times, each repeat its own cache entry', async () => {
    const { fx, model } = await open();
    const outcome = await fx.run({ repeat: 3 });
    expect(model.doGenerateCalls).toHaveLength(9);
    expect(outcome.summary.rows).toBe(9);
    expect(rowsOf(fx).map((row) => `${row.index}.${row.repeat}`)).toEqual(['0.0', '0.1', '0.2', '1.0', '1.1', '1.2', '2.0', '2.1', '2.2']);
    expect(await cacheEntries(fx.dir)).toBe(9);
    fx.events.length = 0;
    const again = await fx.run({ repeat: 3 });
    expect(model.doGenerateCalls).toHaveLength(9);
    expect(again.summary.cached).toBe(9);
  });

  // The sample and the split are fixed by their seeds: the same 8 rows always give these.
  it.each([
    ['rows', { kind: 'rows', ranges: [[0, 0], [2, 3]] }, [0, 2, 3]],
    ['sample', { kind: 'sample', count: 2, seed: 7 }, [0, 7]],
    ['split', { kind: 'split', name: 'train', percent: 50, seed: 3 }, [2, 4, 5, 6]],
  ] as const)('passes the %s selection through to the dataset', async (_kind, selection, expected) => {
    const words = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const { fx, model } = await open({ 'datasets/words.jsonl': wordsDataset(words) });
    const outcome = await fx.run({ selection: structuredClone(selection) as never });
    const indexes = rowsOf(fx).map((row) => row.index);
    expect(indexes).toEqual(expected);
    expect(rowsOf(fx).map((row) => row.output)).toEqual(expected.map((index) => words[index]));
    expect(model.doGenerateCalls).toHaveLength(indexes.length);
    expect(outcome.summary.rows).toBe(indexes.length);
    // seeded: the same selection again picks the same rows
    fx.events.length = 0;
    await fx.run({ selection: structuredClone(selection) as never });
    expect(rowsOf(fx).map((row) => row.index)).toEqual(indexes);
  });

  it('--skip-eval runs the model and no eval at all', async () => {
    let scorerCalls = 0;
    const { fx, model } = await open({ 'prompts/echo.prompt.mdx': promptFile({ evals: ['exact', 'length'] }) });
    const outcome = await fx.run({ skipEval: true }, { scorers: { length: () => ((scorerCalls += 1), { score: 1 }) } });
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(scorerCalls).toBe(0);
    expect(rowsOf(fx).map((row) => row.evals)).toEqual([{}, {}, {}]);
    expect(fx.events.some((event) => event.type === 'eval-end')).toBe(false);
    expect(outcome.summary.evals).toEqual([]);
  });

  it('eval binding errors are thrown before any model call or run folder', async () => {
    const { fx, model } = await open({ 'prompts/echo.prompt.mdx': promptFile({ evals: ['exact', 'exactt'] }) });
    await expect(fx.run()).rejects.toBeInstanceOf(EvalBindingError);
    await expect(fx.run()).rejects.toThrow(/eval "exactt" has no scorer/);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(fx.events).toEqual([]);
    await expect(readdir(join(fx.dir, '.agentmark', 'runs'))).rejects.toThrow(/ENOENT/);
  });

  it('rows carrying a pre-generated output are scored without a model call', async () => {
    const dataset = `${JSON.stringify({ input: { word: 'alpha' }, expected_output: 'alpha', output: 'alpha' })}\n${JSON.stringify({
      input: { word: 'beta' },
      expected_output: 'beta',
      output: 'BETA',
    })}\n`;
    const { fx, model } = await open({ 'datasets/words.jsonl': dataset });
    const outcome = await fx.run();
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(rowsOf(fx).map((row) => [row.output, row.pregenerated, row.evals.exact?.passed])).toEqual([
      ['alpha', true, true],
      ['BETA', true, false],
    ]);
    expect(outcome.summary).toMatchObject({ rows: 2, pregenerated: 2, passed: false, latencyMs: {} });
  });

  it('score-only mode errors rows without an output instead of calling the model', async () => {
    const { fx, model } = await open({
      'outputs.jsonl': `${JSON.stringify({ input: { word: 'alpha' }, expected_output: 'alpha', output: 'alpha' })}\n${JSON.stringify({ input: { word: 'beta' } })}\n`,
    });
    const outcome = await fx.run({ scoreOnly: true, datasetPath: join(fx.dir, 'outputs.jsonl') });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(rowsOf(fx).map((row) => [row.index, row.error ?? row.output])).toEqual([
      [0, 'alpha'],
      [1, 'this row has no "output" to score'],
    ]);
    expect(outcome.summary.errored).toBe(1);
  });

  it('a run of zero rows fails its gates', async () => {
    const { fx, model } = await open();
    const outcome = await fx.run({ onlyIndexes: new Set() });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(outcome.summary.passed).toBe(false);
    expect(outcome.summary.gates).toEqual([{ name: 'rows', passed: false, message: 'no rows were run' }]);
  });

  it('a cache that cannot be written warns once and fails no row', async () => {
    // `.agentmark/cache` is a file, so no segment can be created under it.
    const { fx, model } = await open({ '.agentmark/cache': 'not a folder' });
    const outcome = await fx.run();
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(outcome.summary).toMatchObject({ rows: 3, errored: 0, passed: true });
    const warnings = fx.events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^answers are not being cached: .*\.agentmark\/cache/);
    expect(warnings[0]).toMatch(/\(make \.agentmark\/cache a writable folder; rows still run, reruns will call the model again\)$/);
  });

  it('a failing model call errors the row and the run goes on', async () => {
    let calls = 0;
    const flaky = echoModel();
    const inner = flaky.doGenerate.bind(flaky);
    flaky.doGenerate = async (options) => {
      calls += 1;
      if (calls === 1) throw new Error('model exploded');
      return inner(options);
    };
    const { fx } = await open({}, flaky);
    const outcome = await fx.run({ concurrency: 1, maxRetries: 0 });
    expect(outcome.summary).toMatchObject({ rows: 3, errored: 1, passed: false });
    expect(rowsOf(fx)[0]?.error).toMatch(/model exploded/);
    expect(outcome.failedIndexes).toEqual(new Set([0]));
  });

  it('--resume of a finished run replays its rows to the reporters and calls nothing', async () => {
    const { fx, model } = await open();
    const first = await fx.run({ repeat: 2 });
    fx.events.length = 0;
    const resumed = await fx.run({ repeat: 2, resume: first.runId });
    expect(model.doGenerateCalls).toHaveLength(6);
    expect(resumed.runId).toBe(first.runId);
    expect(resumed.summary.rows).toBe(6);
    const replayed = fx.events.filter((event) => event.type === 'row-end');
    expect(replayed).toHaveLength(6);
    expect(replayed.every((event) => event.type === 'row-end' && event.replayed === true)).toBe(true);
    expect(fx.events.find((event) => event.type === 'run-start')).toMatchObject({ info: { total: 0, resumed: 6 } });
  });

  it('--resume refuses to mix other options, another model or a changed prompt into a run', async () => {
    const { fx, model } = await open();
    const first = await fx.run({ selection: { kind: 'rows', ranges: [[0, 1]] } });
    const resume = (options: Parameters<Fixture['run']>[0]) => fx.run({ resume: first.runId, ...options });
    await expect(resume({})).rejects.toThrow(
      `cannot resume run ${first.runId}: it selected other rows (--rows, --sample, --sample-rows, --limit or --split differ)`,
    );
    await expect(resume({ selection: { kind: 'rows', ranges: [[0, 1]] }, repeat: 2, skipEval: true })).rejects.toThrow(
      `cannot resume run ${first.runId}: it ran --repeat 1, not 2; --skip-eval differs`,
    );
    await writeFile(join(fx.dir, 'prompts', 'echo.prompt.mdx'), (await readFile(join(fx.dir, 'prompts', 'echo.prompt.mdx'), 'utf8')).replace('0.5', '0.7'));
    const changed = resume({ selection: { kind: 'rows', ranges: [[0, 1]] } });
    await expect(changed).rejects.toBeInstanceOf(UsageError);
    await expect(resume({ selection: { kind: 'rows', ranges: [[0, 1]] } })).rejects.toThrow(/prompts\/echo\.prompt\.mdx changed since/);
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});
