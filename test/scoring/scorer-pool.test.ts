// User scorers in worker threads (src/scoring/workers/). The workers run the built
// dist/bundle/scorer-worker.js, as the CLI does; `npm test` builds before vitest starts.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindEvals, runEval, type BindResult } from '../../src/scoring/index.js';
import { params } from './fixtures.js';

const config = `import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
export default {
  scorers: {
    ok: ({ output }: { output: string }) => ({ passed: output === 'yes', reason: isMainThread ? 'main thread' : 'worker thread' }),
    threw: () => { throw new Error('no verdict'); },
    loop: () => { for (;;) {} },
    stuck: () => new Promise(() => {}),
    fn: () => ({ passed: true, label: (() => 1) as unknown as string }),
    // Leaves a file next to the config when told to stop, so the test can see the signal arrive.
    aborted: (_: unknown, control: { signal: AbortSignal }) =>
      new Promise(() => control.signal.addEventListener('abort', () => writeFileSync(new URL('./aborted.txt', import.meta.url), 'yes'))),
  },
};
`;

let dir: string;
let bound: BindResult | undefined;
afterEach(async () => {
  await bound?.close();
  bound = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function bind(names: string[], configText = config): Promise<BindResult> {
  dir = await mkdtemp(join(tmpdir(), 'am-pool-'));
  const configFile = join(dir, 'agentmark.config.ts');
  await writeFile(configFile, configText);
  // The functions here stand for what the CLI loaded on the main thread; the workers load their own.
  const userScorers = Object.fromEntries(names.map((name) => [name, () => ({ passed: false, reason: 'ran on the main thread' })]));
  bound = await bindEvals(names, { scores: {}, userScorers, projectRoot: dir, promptPath: join(dir, 'p.prompt.mdx'), configFile, concurrency: 4 });
  return bound;
}

function evalOf(result: BindResult, name: string) {
  const found = result.evals.find((e) => e.name === name);
  if (!found) throw new Error(`no eval ${name}`);
  return found;
}

// Worker start-up (jiti and the config) takes seconds on a loaded machine.
describe('user scorers in worker threads', { timeout: 40_000 }, () => {
  it('run in a worker with the params cloned across, and their results and throws come back', async () => {
    const result = await bind(['ok', 'threw']);
    expect(await runEval(evalOf(result, 'ok'), params({ output: 'yes' }))).toEqual({ passed: true, reason: 'worker thread', normalized: 1, untyped: true });
    expect(await runEval(evalOf(result, 'threw'), params())).toEqual({ error: 'no verdict' });
  });

  it('a sync loop and a promise that never settles time out; the pool keeps serving', async () => {
    const result = await bind(['ok', 'loop', 'stuck']);
    const [loop, stuck] = await Promise.all([
      runEval(evalOf(result, 'loop'), params(), { timeoutMs: 300 }),
      runEval(evalOf(result, 'stuck'), params(), { timeoutMs: 300 }),
    ]);
    expect(loop).toEqual({ error: 'timed out after 0.3s' });
    expect(stuck).toEqual({ error: 'timed out after 0.3s' });
    const after = await Promise.all([1, 2, 3].map(() => runEval(evalOf(result, 'ok'), params({ output: 'yes' }), { timeoutMs: 10_000 })));
    expect(after.map((r) => r.passed)).toEqual([true, true, true]);
  });

  it('a result that cannot cross threads is an eval error that says what to return', async () => {
    const result = await bind(['fn']);
    const scored = await runEval(evalOf(result, 'fn'), params());
    expect(scored.error).toMatch(/^the scorer's result cannot be passed between threads \(.*could not be cloned.*\); return plain data$/);
  });

  it("the scorer's signal is aborted when its eval times out", async () => {
    const result = await bind(['aborted']);
    expect(await runEval(evalOf(result, 'aborted'), params(), { timeoutMs: 200 })).toEqual({ error: 'timed out after 0.2s' });
    await expect.poll(() => readFile(join(dir, 'aborted.txt'), 'utf8').catch(() => 'no'), { timeout: 5000 }).toBe('yes');
  });

  it('a config that fails in the worker makes each eval an error naming the cause', async () => {
    const result = await bind(['ok'], `import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) throw new Error('not in a worker');\nexport default { scorers: { ok: () => ({ passed: true }) } };\n`);
    const scored = await runEval(evalOf(result, 'ok'), params());
    expect(scored.error).toMatch(/^a scorer worker could not load agentmark\.config: loading the config failed: not in a worker/);
  });

  it('binding alone starts no worker, and closing an unused pool is free; the first eval starts one', async () => {
    // Node publishes every new Worker on the `worker_threads` diagnostics channel.
    let started = 0;
    const count = (): void => void started++;
    subscribe('worker_threads', count);
    try {
      const result = await bind(['ok']);
      expect(started).toBe(0);
      await result.close();
      expect(started).toBe(0);
      await rm(dir, { recursive: true, force: true });
      // The same count sees a worker when one does start.
      const used = await bind(['ok']);
      await runEval(evalOf(used, 'ok'), params({ output: 'yes' }));
      expect(started).toBe(1);
    } finally {
      unsubscribe('worker_threads', count);
    }
  });
});
