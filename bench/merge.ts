/** Bench scenario: `agentmark merge` of 4 shards of 25,000 rows each (issue 14). */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';

const ROWS = 100_000;
const SHARDS = 4;
const labels = ['refund', 'shipping', 'account', 'product_question', 'other'];

/**
 * The shard of a row as `--shard` picks it, written here from its definition (sha256 of the
 * row's content as sorted-key JSON, the top 30 bits, modulo n, plus one) rather than imported:
 * if the two ever disagree, merge refuses the shards and the bench says so.
 */
function shardOf(row: { input: Record<string, unknown>; expectedOutput: unknown; metadata: Record<string, unknown> }): number {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted)
      : value !== null && typeof value === 'object' ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]))
        : value;
  const digest = createHash('sha256').update(JSON.stringify(sorted({ input: row.input, expectedOutput: row.expectedOutput, metadata: row.metadata }))).digest();
  const bits = ((digest[0] as number) * 2 ** 22) + ((digest[1] as number) << 14) + ((digest[2] as number) << 6) + ((digest[3] as number) >> 2);
  return (bits % SHARDS) + 1;
}

const write = async (out: WriteStream, text: string): Promise<void> => {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
};

/**
 * Four shard run folders as `run-experiment --shard i/4` leaves them: ~25,000 rows each of
 * ~450 bytes (a verdict eval and a 1–5 score), each shard's results a little out of order.
 */
export async function createShardsProject(): Promise<{ root: string; folders: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-merge-'));
  await writeFile(join(root, 'agentmark.json'), JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: {} }));
  const folders = Array.from({ length: SHARDS }, (_, i) => join(root, 'shards', `20261130-00000${i}.000-shard${i + 1}`));
  const outs = await Promise.all(folders.map(async (dir) => {
    await mkdir(dir, { recursive: true });
    return createWriteStream(join(dir, 'results.jsonl'));
  }));
  const counts = new Array<number>(SHARDS).fill(0);
  const held: Array<string | undefined> = new Array<string | undefined>(SHARDS).fill(undefined);
  for (let index = 0; index < ROWS; index += 1) {
    const expected = labels[index % labels.length] as string;
    const passed = index % 5 !== 3;
    const score = 1 + (index % 5);
    const row = {
      index, line: index + 1, repeat: 0,
      input: { message: `Customer message number ${index}: where is my order, it has not arrived yet`, labels },
      expectedOutput: expected, metadata: {},
      output: passed ? expected : 'other', toolCalls: [],
      evals: {
        exact: { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0, reason: passed ? 'equal' : 'not equal' },
        quality: { score, normalized: (score - 1) / 4 },
      },
      latencyMs: 100 + (index % 50), usage: { inputTokens: 40, outputTokens: 2, totalTokens: 42 }, cached: false, retries: 0,
    };
    const shard = shardOf(row) - 1;
    counts[shard] = (counts[shard] as number) + 1;
    const line = `${JSON.stringify(row)}\n`;
    // Every other pair of rows swapped: finish order, not dataset order.
    const waiting = held[shard];
    if (waiting === undefined && index % 2 === 0) held[shard] = line;
    else {
      await write(outs[shard] as WriteStream, line);
      if (waiting !== undefined) await write(outs[shard] as WriteStream, waiting);
      held[shard] = undefined;
    }
  }
  for (const [shard, out] of outs.entries()) {
    const waiting = held[shard];
    if (waiting !== undefined) await write(out, waiting);
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  for (const [i, dir] of folders.entries()) {
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({
      id: `20261130-00000${i}.000-shard${i + 1}`, prompt: { path: 'prompts/p.prompt.mdx', hash: 'h', name: 'p' }, dataset: { path: 'datasets/d.jsonl', hash: 'd' },
      model: 'openai/gpt-4o-mini', settings: {}, options: { repeat: 1, selection: { kind: 'all' } },
      startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:10:00.000Z', status: 'completed',
      summary: { rows: counts[i], errored: 0, cached: 0, pregenerated: 0, evals: [], latencyMs: {}, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, flaky: [], gates: [], passed: true },
      shard: { index: i + 1, count: SHARDS, evals: ['exact', 'quality'] },
    }, null, 2));
  }
  return { root, folders };
}

export const mergeScenario = {
  id: 'merge',
  title: '8 merge 4 shards of 25,000 rows',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    context.log('  writing four 25,000-row shards (unmeasured)');
    const { root, folders } = await createShardsProject();
    const wall: number[] = [];
    const rss: number[] = [];
    const notes: string[] = [];
    try {
      for (let i = 0; i < runs; i += 1) {
        const out = join(root, `merged-${i}`);
        // Exit 1: the merged gates fail (a fifth of the rows fail `exact`), as intended.
        const run = await measureNode([context.bin, 'merge', ...folders, '-o', out], { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 120_000 });
        context.log(`  run ${i + 1}/${runs}: ${run.wallMs.toFixed(0)} ms, peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB, exit ${run.code}`);
        if (run.code !== 1) notes.push(`exit ${run.code}: ${run.stderr.slice(0, 200)}`);
        const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8').catch(() => '{}')) as { summary?: { rows?: number } };
        if (manifest.summary?.rows !== ROWS) notes.push(`merged run has ${manifest.summary?.rows ?? 'no'} rows, not ${ROWS}`);
        await rm(out, { recursive: true, force: true });
        wall.push(run.wallMs);
        if (run.peakRssMb !== undefined) rss.push(run.peakRssMb);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    const metrics = [metric('wall', 'ms', wall)];
    if (rss.length > 0) metrics.push(metric('peak RSS', 'MB', rss));
    return { id: 'merge', title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details: {} };
  },
};
