/**
 * Bench scenario 9: the time bounds that used to be assertions in the test suite (issue 25:
 * a timed assertion fails on a loaded machine, so the suite checks order and outcome and the
 * bench keeps the figures). Each metric keeps the bound its test had as its target:
 *
 * - scanning 50,000 nested tags for the depth limit (test/prompt/tag-depth.test.ts, < 500 ms);
 * - a caller's abort surfacing as MODEL_ABORTED, on a server that never answers and during a
 *   30 s Retry-After (test/model/retries.test.ts, < 1 s);
 * - the viewer sending a row appended to a running run as a server-sent event
 *   (test/view/server.test.ts, < 1 s);
 * - a second SIGINT ending a run while a scorer loops forever (test/cli/hostile-scorers.test.ts, < 2 s);
 * - the regex and json_schema built-ins on a catastrophic pattern, (a+)+$ on 40 a's and "!"
 *   (test/scoring/builtins-text.test.ts and builtins-json.test.ts, < 2 s; issue 35);
 * - a run whose server dies mid-run stopping (exit 2) by its circuit breaker, from the server's
 *   close to the process's exit (test/faults/dead-server.test.ts, < 15 s; issue 35).
 *
 * The tag scan, aborts, live row and patterns run the compiled library (`dist/`) in this
 * process; the SIGINT and dead-server cases run the CLI.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliEnv, type BenchContext } from './context.js';
import { metric, type Metric, type ScenarioResult } from './report.js';
import { startBenchServer } from './server.js';

/** The parts of the compiled library this scenario calls (typed here: bench/ compiles alone). */
interface Library {
  executeModelRequest(request: object, options: { registry: unknown; signal?: AbortSignal; timeoutMs?: number; retryDelayMs?: number; random?: () => number }): Promise<unknown>;
  createProviderRegistry(options: { baseURL: string; env: Record<string, string> }): unknown;
  RunStore: new (projectRoot: string) => { create(manifest: object): Promise<{ append(row: object): void; close(): Promise<void> }> };
}
interface ViewModule {
  startViewServer(options: { projectRoot: string; port: number }): Promise<{ port: number; close(): Promise<void> }>;
}
interface TagDepthModule {
  tagsTooDeepAt(text: string, limit: number): number | undefined;
}
interface ScoringModule {
  bindEvals(names: string[], context: object): Promise<{ evals: Array<{ name: string }> }>;
  runEval(bound: { name: string }, params: object): Promise<{ passed?: boolean; reason?: string; error?: string }>;
}

const load = <T>(dist: string, file: string): Promise<T> => import(pathToFileURL(join(dist, file)).href) as Promise<T>;

export const boundsScenario = {
  id: 'bounds',
  title: '9 former suite bounds',
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    const dist = dirname(dirname(context.bin));
    const notes: string[] = [];
    const metrics: Metric[] = [];
    const target = (value: number, test: string): { value: number; source: string; text: string } => ({ value, source: `issue 25 (was ${test})`, text: `< ${value} ms` });

    const tagDepth = await load<TagDepthModule>(dist, 'prompt/tag-depth.js');
    const nested = `${'<If condition={true}>'.repeat(50_000)}x${'</If>'.repeat(50_000)}`;
    const scan: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      const at = tagDepth.tagsTooDeepAt(nested, 256);
      scan.push(performance.now() - started);
      if (at !== 256 * '<If condition={true}>'.length) notes.push(`tag depth: expected offset ${256 * 21}, got ${String(at)}`);
    }
    metrics.push(metric('tag depth: 50,000 nested tags', 'ms', scan, { target: target(500, 'test/prompt/tag-depth.test.ts') }));

    const library = await load<Library>(dist, 'index.js');
    context.log('  aborts');
    const aborts = await measureAborts(library, runs, notes);
    metrics.push(metric('abort → MODEL_ABORTED, server silent', 'ms', aborts.hung, { target: target(1000, 'test/model/retries.test.ts') }));
    metrics.push(metric('abort → MODEL_ABORTED, in Retry-After 30 s', 'ms', aborts.retryAfter, { target: target(1000, 'test/model/retries.test.ts') }));

    const view = await load<ViewModule>(dist, 'view/index.js');
    context.log('  live row');
    metrics.push(metric('viewer: row appended → rows event', 'ms', await measureLiveRow(library, view, runs, notes), { target: target(1000, 'test/view/server.test.ts') }));

    context.log('  second SIGINT');
    metrics.push(metric('second SIGINT → exit (scorer looping)', 'ms', await measureSecondSigint(context, runs, notes), { target: target(2000, 'test/cli/hostile-scorers.test.ts') }));

    const scoring = await load<ScoringModule>(dist, 'scoring/index.js');
    context.log('  hostile patterns');
    const patterns = await measureHostilePatterns(scoring, runs, notes);
    const was = (value: number, test: string): { value: number; source: string; text: string } => ({ value, source: `issue 35 (was ${test})`, text: `< ${value} ms` });
    metrics.push(metric('regex (a+)+$ on 40 a\'s and "!"', 'ms', patterns.regex, { target: was(2000, 'test/scoring/builtins-text.test.ts') }));
    metrics.push(metric('json_schema pattern (a+)+$ on 40 a\'s and "!"', 'ms', patterns.schema, { target: was(2000, 'test/scoring/builtins-json.test.ts') }));

    context.log('  dead server');
    metrics.push(metric('server dies → exit 2 (breaker)', 'ms', await measureDeadServer(context, runs, notes), { target: was(15_000, 'test/faults/dead-server.test.ts') }));
    return { id: 'bounds', title: this.title, status: notes.length > 0 ? 'failed' : 'ok', notes, metrics, details: {} };
  },
};

/** A chat-completions server that never answers (`hang`) or answers 429 with Retry-After: 30. */
async function startStubbornServer(): Promise<{ url: string; mode: 'hang' | '429'; received: () => Promise<void>; close(): Promise<void> }> {
  let onRequest: () => void = () => {};
  const open = new Set<ServerResponse>();
  const state = { mode: 'hang' as 'hang' | '429' };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      onRequest();
      if (state.mode === '429') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
        res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
      } else {
        open.add(res);
        res.on('close', () => open.delete(res));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
    received: () => new Promise<void>((resolve) => (onRequest = resolve)),
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** From `abort()` (once the server has the request) to the rejection, for both ways of waiting. */
async function measureAborts(library: Library, runs: number, notes: string[]): Promise<{ hung: number[]; retryAfter: number[] }> {
  const server = await startStubbornServer();
  const request = { modelName: 'openai/gpt-4o-mini', kind: 'text', messages: [{ role: 'user', content: 'ping' }], settings: {} };
  const registry = library.createProviderRegistry({ baseURL: server.url, env: {} });
  const samples = { hung: [] as number[], retryAfter: [] as number[] };
  try {
    for (const [mode, into] of [['hang', samples.hung], ['429', samples.retryAfter]] as const) {
      server.mode = mode;
      for (let i = 0; i < runs; i += 1) {
        const controller = new AbortController();
        const received = server.received();
        const call = library.executeModelRequest(request, { registry, signal: controller.signal, timeoutMs: 600_000, retryDelayMs: 10, random: () => 0.5 }).then(
          () => undefined,
          (error: unknown) => error,
        );
        await received;
        // in Retry-After, let the client start waiting before it is aborted
        if (mode === '429') await new Promise((resolve) => setTimeout(resolve, 50));
        const started = performance.now();
        controller.abort();
        const error = (await call) as { code?: string } | undefined;
        into.push(performance.now() - started);
        if (error?.code !== 'MODEL_ABORTED') notes.push(`abort (${mode}): expected MODEL_ABORTED, got ${String(error?.code ?? error)}`);
      }
    }
  } finally {
    await server.close();
  }
  return samples;
}

/** A running run served by the viewer; each sample appends one row and waits for its `rows` event. */
async function measureLiveRow(library: Library, view: ViewModule, runs: number, notes: string[]): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-bench-live-'));
  const samples: number[] = [];
  try {
    await writeFile(join(dir, 'agentmark.json'), '{ "agentmarkPath": "." }');
    const id = '20261130-110000.000-bbbbbb';
    const handle = await new library.RunStore(dir).create({
      id,
      prompt: { path: 'prompts/p.prompt.mdx', hash: '0'.repeat(64), name: 'p' },
      model: 'openai/gpt-4o-mini',
      settings: {},
      options: {},
      startedAt: '2026-11-30T11:00:00.000Z',
      status: 'running',
    });
    const row = (index: number): object => ({
      index, line: index + 1, repeat: 0, input: { q: `question ${index}` }, expectedOutput: `answer ${index}`, metadata: {},
      output: `answer ${index}`, toolCalls: [], evals: { correct: { passed: true, score: 1, normalized: 1 } }, latencyMs: 10, cached: false, retries: 0,
    });
    handle.append(row(0));
    const server = await view.startViewServer({ projectRoot: dir, port: 0 });
    try {
      for (let i = 1; i <= runs; i += 1) {
        const started = await new Promise<number>((resolve, reject) => {
          let appendedAt = 0;
          let buffer = '';
          const req = request({ host: '127.0.0.1', port: server.port, path: `/api/runs/${id}/events?since=${i}`, headers: { host: `127.0.0.1:${server.port}` } }, (res) => {
            res.setEncoding('utf8').on('data', (chunk: string) => {
              buffer += chunk;
              if (/^data: \{"type":"rows"/m.test(buffer)) {
                req.destroy();
                resolve(performance.now() - appendedAt);
              }
            });
            appendedAt = performance.now();
            handle.append(row(i));
          });
          req.on('error', (error) => (buffer.includes('"rows"') ? undefined : reject(error)));
          req.end();
        });
        samples.push(started);
      }
    } finally {
      await server.close();
      await handle.close();
    }
  } catch (error) {
    notes.push(`live row: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return samples;
}

const LOOP_CONFIG = `export default {
  scorers: {
    loop: ({ input }: { input: { q: string } }) => {
      if (input.q.startsWith('loop')) for (;;) {}
      return { passed: true };
    },
  },
};
`;

/** `run-experiment` with a scorer spinning in sync code: SIGINT, SIGINT 100 ms later, until exit. */
async function measureSecondSigint(context: BenchContext, runs: number, notes: string[]): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-bench-sigint-'));
  const samples: number[] = [];
  try {
    await mkdir(join(dir, 'prompts'));
    await mkdir(join(dir, 'datasets'));
    await writeFile(join(dir, 'agentmark.json'), JSON.stringify({ agentmarkPath: 'prompts', scores: { loop: { type: 'boolean' } } }));
    await writeFile(join(dir, 'agentmark.config.ts'), LOOP_CONFIG);
    await writeFile(
      join(dir, 'prompts', 'h.prompt.mdx'),
      '---\nname: h\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/h.jsonl\n  evals: [loop]\n---\n\n<User>{props.q}</User>\n',
    );
    await writeFile(join(dir, 'datasets', 'h.jsonl'), '{"input":{"q":"loop 0"}}\n{"input":{"q":"question 1"}}\n');
    for (let i = 0; i < runs; i += 1) {
      context.server.reset();
      // a fresh run store and cache each time: a cached answer would never reach the server
      await rm(join(dir, '.agentmark'), { recursive: true, force: true });
      const child = spawn(process.execPath, [context.bin, 'run-experiment', 'prompts/h.prompt.mdx', '--quiet', '--no-cache', '--concurrency', '1', '--eval-timeout', '60'], {
        cwd: dir,
        env: cliEnv(context.server),
        stdio: 'ignore',
      });
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const deadline = performance.now() + 60_000;
      while (context.server.requests < 1 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (context.server.requests < 1) {
        child.kill('SIGKILL');
        await exited;
        notes.push('second SIGINT: the run made no model call within 60 s');
        continue;
      }
      // let the scorer start spinning
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const started = performance.now();
      child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 100));
      child.kill('SIGINT');
      const [code] = await exited;
      samples.push(performance.now() - started);
      if (code !== 130) notes.push(`second SIGINT: expected exit 130, got ${String(code)}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return samples;
}

/** One bound eval's call on a hostile output, for the regex built-in and json_schema's `pattern`. */
async function measureHostilePatterns(scoring: ScoringModule, runs: number, notes: string[]): Promise<{ regex: number[]; schema: number[] }> {
  const hostile = `${'a'.repeat(40)}!`;
  const { evals } = await scoring.bindEvals(['rx', 'js'], {
    scores: {
      rx: { type: 'boolean', scorer: 'regex', options: { pattern: '(a+)+$' } },
      js: { type: 'boolean', scorer: 'json_schema', options: { schema: { type: 'object', properties: { id: { type: 'string', pattern: '(a+)+$' } } } } },
    },
    userScorers: {},
    projectRoot: '/bench',
    promptPath: '/bench/prompts/p.prompt.mdx',
  });
  const [rx, js] = evals;
  const samples = { regex: [] as number[], schema: [] as number[] };
  if (rx === undefined || js === undefined) {
    notes.push('hostile patterns: the built-ins did not bind');
    return samples;
  }
  const params = (output: string): object => ({ input: {}, output, metadata: {}, messages: [], toolCalls: [], usage: undefined, latencyMs: undefined, costUsd: undefined, schema: undefined });
  for (let i = 0; i < runs; i += 1) {
    for (const [bound, output, into] of [[rx, hostile, samples.regex], [js, JSON.stringify({ id: hostile }), samples.schema]] as const) {
      const started = performance.now();
      const result = await scoring.runEval(bound, params(output));
      into.push(performance.now() - started);
      if (result.passed !== false) notes.push(`hostile pattern (${bound.name}): expected a fail, got ${JSON.stringify(result)}`);
    }
  }
  return samples;
}

/**
 * `run-experiment` of 500 rows against a server of its own that closes once it has answered 40
 * requests: from the close to the process's exit, which must be 2 (stopped by the breaker).
 */
async function measureDeadServer(context: BenchContext, runs: number, notes: string[]): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-bench-dead-'));
  const samples: number[] = [];
  try {
    await mkdir(join(dir, 'prompts'));
    await writeFile(join(dir, 'agentmark.json'), JSON.stringify({ agentmarkPath: 'prompts', scores: { exact: { type: 'boolean', scorer: 'exact_match' } } }));
    await writeFile(
      join(dir, 'prompts', 'echo.prompt.mdx'),
      '---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: echo.jsonl\n  evals: [exact]\n---\n<User>{props.q}</User>\n',
    );
    await writeFile(join(dir, 'prompts', 'echo.jsonl'), `${Array.from({ length: 500 }, (_, i) => JSON.stringify({ input: { q: `question ${i}` } })).join('\n')}\n`);
    for (let i = 0; i < runs; i += 1) {
      await rm(join(dir, '.agentmark'), { recursive: true, force: true });
      const server = await startBenchServer(5);
      const child = spawn(process.execPath, [context.bin, 'run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--no-cache', '--concurrency', '4', '--timeout', '5', '--format', 'jsonl', '--output', '/dev/null'], {
        cwd: dir,
        env: cliEnv(server),
        stdio: 'ignore',
      });
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const deadline = performance.now() + 60_000;
      while (server.requests < 40 && child.exitCode === null && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
      const started = performance.now();
      await server.close();
      const [code] = await Promise.race([exited, new Promise<[null, null]>((resolve) => setTimeout(() => resolve([null, null]), 120_000))]);
      if (code === null) {
        child.kill('SIGKILL');
        notes.push('dead server: the run did not stop within 120 s of its server closing');
        continue;
      }
      samples.push(performance.now() - started);
      if (code !== 2) notes.push(`dead server: expected exit 2 (stopped by the breaker), got ${String(code)}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return samples;
}
