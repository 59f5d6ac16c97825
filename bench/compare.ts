/** Bench scenario: `agentmark compare` of two 100,000-row runs (issue 11: < 5 s, < 300 MB). */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';

const ROWS = 100_000;
const labels = ['refund', 'shipping', 'account', 'product_question', 'other'];

/** A tiny deterministic PRNG, so both runs are the same every bench. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * Writes a run folder the way the runner leaves it: a manifest with its summary, and a
 * results file in finish order (rows a little out of dataset order, as a pool of 100 leaves
 * them). Each row ~450 bytes, two evals: a verdict and a 1–5 score.
 */
async function writeRun(root: string, id: string, seed: number, passChance: number): Promise<void> {
  const dir = join(root, '.agentmark', 'runs', id);
  await mkdir(dir, { recursive: true });
  const next = random(seed);
  const order = Array.from({ length: ROWS }, (_, i) => i);
  for (let i = 0; i < ROWS - 1; i += 1) if (next() < 0.3) [order[i], order[i + 1]] = [order[i + 1] as number, order[i] as number];
  const out = createWriteStream(join(dir, 'results.jsonl'));
  for (const index of order) {
    const rowRandom = random(index * 7919 + 1);
    const expected = labels[index % labels.length] as string;
    const passed = (rowRandom() + next() * 0.2) < passChance;
    const score = 1 + Math.floor(rowRandom() * 4 + next());
    const row = {
      index,
      line: index + 1,
      repeat: 0,
      input: { message: `Customer message number ${index}: where is my order, it has not arrived yet`, labels },
      expectedOutput: expected,
      metadata: {},
      output: passed ? expected : 'other',
      toolCalls: [],
      evals: {
        exact: { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0, reason: passed ? 'equal' : 'not equal' },
        quality: { score: Math.min(5, score), normalized: (Math.min(5, score) - 1) / 4 },
      },
      latencyMs: 120,
      usage: { inputTokens: 40, outputTokens: 2, totalTokens: 42 },
      cached: false,
      retries: 0,
    };
    if (!out.write(`${JSON.stringify(row)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const summary = {
    rows: ROWS, errored: 0, cached: 0, pregenerated: 0,
    evals: [{ name: 'exact', count: ROWS, errored: 0, verdictCount: ROWS, passedCount: 0 }, { name: 'quality', count: ROWS, errored: 0, verdictCount: 0, passedCount: 0 }],
    latencyMs: { p50: 120, p95: 130 }, usage: { inputTokens: 40 * ROWS, outputTokens: 2 * ROWS, totalTokens: 42 * ROWS }, flaky: [], gates: [], passed: true,
  };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({
    id, prompt: { path: 'prompts/p.prompt.mdx', hash: `h${seed}`, name: 'p' }, dataset: { path: 'datasets/d.jsonl', hash: 'd' },
    model: 'openai/gpt-4o-mini', settings: {}, options: { repeat: 1 }, startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:10:00.000Z', status: 'completed', summary,
  }, null, 2));
}

/** Creates the two runs in a temporary project; returns its folder. */
export async function createCompareProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-compare-'));
  await writeFile(join(root, 'agentmark.json'), JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: {} }));
  await writeRun(root, '20261130-000000.000-aaaaaa', 1, 0.8);
  await writeRun(root, '20261130-000001.000-bbbbbb', 2, 0.78);
  return root;
}

export const compareScenario = {
  id: 'compare',
  title: '7 compare two 100,000-row runs',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    context.log('  writing two 100,000-row runs (unmeasured)');
    const root = await createCompareProject();
    const wall: number[] = [];
    const rss: number[] = [];
    const notes: string[] = [];
    try {
      const args = [context.bin, 'compare', 'latest~1', 'latest', '--format', 'json', '--output', join(root, 'out.json')];
      for (let i = 0; i < runs; i += 1) {
        const run = await measureNode(args, { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 120_000 });
        context.log(`  run ${i + 1}/${runs}: ${run.wallMs.toFixed(0)} ms, peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB, exit ${run.code}`);
        if (run.code !== 0) notes.push(`exit ${run.code}: ${run.stderr.slice(0, 200)}`);
        wall.push(run.wallMs);
        if (run.peakRssMb !== undefined) rss.push(run.peakRssMb);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    const metrics = [metric('wall', 'ms', wall, { target: { value: 5000, source: 'issue 11', text: '< 5 s' } })];
    if (rss.length > 0) metrics.push(metric('peak RSS', 'MB', rss, { target: { value: 300, source: 'issue 11', text: '< 300 MB' } }));
    const over = metrics.some((m) => m.target !== undefined && m.median > m.target.value);
    return { id: 'compare', title: this.title, status: notes.length === 0 && !over ? 'ok' : 'failed', notes, metrics, details: {} };
  },
};
