import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError, ErrorList, EvalBindingError } from '../../src/errors/index.js';
import type { RowResult } from '../../src/experiment/index.js';
import { agentmarkJson, echoModel, fixture, promptFile, scores, type Fixture } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const rowsOf = (fx: Fixture): RowResult[] =>
  fx.events.flatMap((event) => (event.type === 'row-end' ? [event.row] : [])).sort((a, b) => a.index - b.index);

const lines = (...rows: Array<Record<string, unknown>>): string => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

async function open(dataset: string, model = echoModel()): Promise<{ fx: Fixture; model: ReturnType<typeof echoModel> }> {
  current = await fixture(
    {
      'agentmark.json': agentmarkJson({ scores: { ...scores, contains: { type: 'boolean' }, has_a: { type: 'boolean', scorer: 'contains' } } }),
      'prompts/echo.prompt.mdx': promptFile({ evals: ['exact'] }),
      'datasets/words.jsonl': dataset,
    },
    model,
  );
  return { fx: current, model };
}

async function rejection(run: Promise<unknown>): Promise<Error> {
  return run.then(
    () => expect.fail('the run should have been refused'),
    (error: unknown) => error as Error,
  );
}

describe('evals on a dataset row', () => {
  it('a row runs its own evals after the prompt\'s, with its options; other rows mark them absent', async () => {
    const { fx } = await open(
      lines(
        { input: { word: 'alpha' }, expected_output: 'alpha', evals: [{ name: 'contains', options: { value: 'lph' } }] },
        { input: { word: 'beta' }, expected_output: 'beta', evals: ['has_a'] },
        { input: { word: 'gamma' }, expected_output: 'gamma', evals: [{ name: 'contains', options: { value: 'zzz' } }] },
        { input: { word: 'delta' }, expected_output: 'delta' },
      ),
    );
    const outcome = await fx.run();
    const rows = rowsOf(fx);
    expect(rows.map((row) => Object.keys(row.evals))).toEqual([
      ['exact', 'contains', 'has_a'],
      ['exact', 'has_a', 'contains'],
      ['exact', 'contains', 'has_a'],
      ['exact', 'contains', 'has_a'],
    ]);
    expect(rows[0]?.evals.contains).toMatchObject({ passed: true, reason: 'output contains "lph"' });
    // has_a reads the row's expected_output ("beta"), since the row gave it no options.
    expect(rows[1]?.evals.has_a).toMatchObject({ passed: true });
    expect(rows[2]?.evals.contains).toMatchObject({ passed: false });
    expect(rows[3]?.evals.contains).toEqual({ skipped: true, absent: true, reason: 'not an eval of this row' });
    const started = fx.events.find((event) => event.type === 'run-start');
    expect(started?.type === 'run-start' && started.info.evalNames).toEqual(['exact', 'contains', 'has_a']);
    // Each eval's n is the rows that carry it: contains 2 (1 passed), has_a 1, exact 4.
    const byName = Object.fromEntries(outcome.summary.evals.map((e) => [e.name, e]));
    expect(byName.exact).toMatchObject({ count: 4, verdictCount: 4, passedCount: 4, passRate: 1 });
    expect(byName.contains).toMatchObject({ count: 2, verdictCount: 2, passedCount: 1, passRate: 0.5, skipped: 0 });
    expect(byName.has_a).toMatchObject({ count: 1, verdictCount: 1, passedCount: 1, passRate: 1, skipped: 0 });
  });

  it('an errored row counts as errored only for the evals it carries', async () => {
    const model = echoModel();
    const inner = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      const said = JSON.stringify(options.prompt);
      if (said.includes('boom')) throw new Error('model exploded');
      return inner(options);
    };
    const { fx } = await open(
      lines(
        { input: { word: 'alpha' }, expected_output: 'alpha', evals: ['has_a'] },
        { input: { word: 'boom1' }, expected_output: 'x', evals: ['has_a'] },
        { input: { word: 'boom2' }, expected_output: 'x' },
      ),
      model,
    );
    const outcome = await fx.run({ concurrency: 1, maxRetries: 0 });
    const byName = Object.fromEntries(outcome.summary.evals.map((e) => [e.name, e]));
    expect(byName.exact).toMatchObject({ count: 3, errored: 2, verdictCount: 3, passedCount: 1 });
    expect(byName.has_a).toMatchObject({ count: 2, errored: 1, verdictCount: 2, passedCount: 1, passRate: 0.5 });
    expect(rowsOf(fx)[2]?.evals).toEqual({ has_a: { skipped: true, absent: true, reason: 'not an eval of this row' } });
    // --threshold: 2 passed of 2 verdicts + the errored rows' evals (boom1: exact, has_a; boom2: exact) = 2 of 5.
    const gated = await fx.run({ concurrency: 1, maxRetries: 0, threshold: 50 });
    expect(gated.summary.gates.find((g) => g.name === 'threshold')?.message).toBe('pass rate 40.0% < threshold 50%');
  });

  it('a row eval of the prompt eval\'s name takes its place on that row', async () => {
    const { fx } = await open(lines({ input: { word: 'alpha' }, expected_output: 'ALPHA', evals: [{ name: 'exact', options: { ignoreCase: true } }] }, { input: { word: 'beta' }, expected_output: 'BETA' }));
    const outcome = await fx.run();
    expect(rowsOf(fx).map((row) => row.evals.exact?.passed)).toEqual([true, false]);
    const started = fx.events.find((event) => event.type === 'run-start');
    expect(started?.type === 'run-start' && started.info.evalNames).toEqual(['exact']);
    expect(outcome.summary.evals.map((e) => [e.name, e.count, e.passedCount])).toEqual([['exact', 2, 1]]);
  });

  it('threshold: row_score is the weighted mean of the row\'s evals, passing at the threshold', async () => {
    const { fx } = await open(
      lines(
        // exact fails (0, weight 1), contains "lph" passes (1, weight 3): 3/4 = 0.75 >= 0.7.
        { input: { word: 'alpha' }, expected_output: 'nope', threshold: 0.7, evals: [{ name: 'contains', options: { value: 'lph' }, weight: 3 }] },
        // exact passes (1), contains "q" fails (0 × 1): 1/2 = 0.5 < 0.7.
        { input: { word: 'beta' }, expected_output: 'beta', threshold: 0.7, evals: [{ name: 'contains', options: { value: 'q' } }] },
        { input: { word: 'gamma' }, expected_output: 'gamma' },
      ),
    );
    const outcome = await fx.run();
    const rows = rowsOf(fx);
    expect(rows[0]?.evals.row_score).toMatchObject({ score: 0.75, passed: true, reason: '0.75 >= threshold 0.7: weighted mean of exact 0, contains 1×3' });
    expect(rows[1]?.evals.row_score).toMatchObject({ score: 0.5, passed: false, reason: '0.5 < threshold 0.7: weighted mean of exact 1, contains 0' });
    expect(rows[2]?.evals.row_score).toMatchObject({ absent: true });
    const rowScore = outcome.summary.evals.find((e) => e.name === 'row_score');
    expect(rowScore).toMatchObject({ count: 2, verdictCount: 2, passedCount: 1, meanScore: 0.625 });
  });

  it('an unknown row eval is exit 2 at the dataset\'s file:line:col with did-you-mean, before any call or run folder', async () => {
    const { fx, model } = await open(lines({ input: { word: 'alpha' }, expected_output: 'alpha' }, { input: { word: 'beta' }, evals: ['exact', 'containz'] }));
    const error = await rejection(fx.run());
    expect(error).toBeInstanceOf(EvalBindingError);
    const binding = error as EvalBindingError;
    expect(binding.code).toBe('EVAL_NOT_FOUND');
    // {"input":{"word":"beta"},"evals":["exact","containz"]}: "containz" starts at column 43 (str.index + 1 in Python).
    expect(binding.where).toBe('datasets/words.jsonl:2:43');
    expect(binding.hint).toBe('did you mean "contains"?');
    expect(binding.exitCode).toBe(2);
    expect(model.doGenerateCalls).toHaveLength(0);
    await expect(readdir(join(fx.dir, '.agentmark', 'runs'))).rejects.toThrow(/ENOENT/);
  });

  it('a bad option of a row eval is EVAL_INVALID_OPTIONS at its options', async () => {
    const { fx, model } = await open(lines({ input: { word: 'alpha' }, evals: [{ name: 'contains', options: { valeu: 'x' } }] }));
    const error = (await rejection(fx.run())) as EvalBindingError;
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    // {"input":{"word":"alpha"},"evals":[{"name":"contains","options":{"valeu":"x"}}]}: options' value at column 65 (str.index + 1 in Python).
    expect(error.where).toBe('datasets/words.jsonl:1:65');
    expect(error.message).toMatch(/invalid options for built-in "contains": must NOT have additional properties/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a row whose evals or threshold have the wrong shape is a dataset error naming line and column', async () => {
    const { fx } = await open(lines({ input: { word: 'alpha' } }, { input: { word: 'b' }, evals: 'exact' }, { input: { word: 'c' }, threshold: 2 }, { input: { word: 'd' }, evals: [{ name: 'exact', weigth: 2 }] }));
    const error = await rejection(fx.run());
    expect(error).toBeInstanceOf(ErrorList);
    const problems = (error as ErrorList).errors as DatasetError[];
    expect(problems.map((p) => [p.code, p.where, p.message])).toEqual([
      ['DATASET_BAD_EVALS', `${join(fx.dir, 'datasets/words.jsonl')}:2:31`, '"evals" must be a list of eval names or { name, options, weight } (got "exact")'],
      ['DATASET_BAD_EVALS', `${join(fx.dir, 'datasets/words.jsonl')}:3:35`, '"threshold" must be a number from 0 to 1, the minimum weighted score of the row\'s evals (got 2)'],
      ['DATASET_BAD_EVALS', `${join(fx.dir, 'datasets/words.jsonl')}:4:48`, '"evals[0]" has an unknown key "weigth" (known: name, options, weight)'],
    ]);
  });
});
