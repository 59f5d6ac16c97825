/**
 * Bench scenario 9b (issues 26 and 30): the viewer opens a 1,000,000-row run, cold, until its
 * first rows are on screen (target < 2 s). The run is made the way the store makes one, so it
 * has the view index written with its rows: one 1,000,000-row shard (`--shard 1/1` as the runner
 * leaves it) merged by `agentmark merge`, which writes the merged run's index (unmeasured). The
 * same run opened without its index (results.jsonl read and parsed whole, as before) is
 * measured once for comparison.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import type { BenchContext } from './context.js';
import { metric, type ScenarioResult } from './report.js';
import { LIMIT, rowLine, startView, stopView, withProject } from './viewer.js';

const ROWS = 1_000_000;
const SHARD = '20261130-150000.000-shard1';

/** The browser globals the callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

/** A finished shard run of ROWS rows in a folder outside the runs folder, as `merge` takes it. */
async function writeShard(root: string): Promise<string> {
  const dir = join(root, 'shards', SHARD);
  await mkdir(dir, { recursive: true });
  const out = createWriteStream(join(dir, 'results.jsonl'));
  for (let i = 0; i < ROWS; i += 1) if (!out.write(rowLine(i))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve) => out.end(() => resolve()));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({
    id: SHARD, prompt: { path: 'prompts/p.prompt.mdx', hash: '0'.repeat(64), name: 'p' }, dataset: { path: 'datasets/d.jsonl', hash: 'd' },
    model: 'openai/gpt-4o-mini', settings: {}, options: { repeat: 1, selection: { kind: 'all' } },
    startedAt: '2026-11-30T10:00:00.000Z', endedAt: '2026-11-30T10:30:00.000Z', status: 'completed',
    summary: { rows: ROWS, errored: 0, cached: 0, pregenerated: 0, evals: [], latencyMs: {}, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, flaky: [], gates: [], passed: true },
    shard: { index: 1, count: 1, evals: ['correct', 'short'] },
  }, null, 2));
  return dir;
}

/** `agentmark merge <shard>`: the merged run (with its view index) in the project's runs folder. */
async function merge(context: BenchContext, root: string, shard: string): Promise<string> {
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [context.bin, 'merge', shard], { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, stdio: 'ignore' });
    child.on('close', resolve);
  });
  // 1 is a gate that failed (a seventh of the rows fail `correct`): the run is merged either way.
  if (code !== 0 && code !== 1) throw new Error(`agentmark merge exited ${code}`);
  const [id] = await readdir(join(root, '.agentmark', 'runs'));
  if (id === undefined) throw new Error('agentmark merge left no run');
  return id;
}

async function openRun(page: Page, url: string, id: string): Promise<number> {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto(`${url}#/runs/${id}`);
  await page.waitForFunction((n) => document.querySelector('[data-testid=shown-count]')?.textContent === String(n), ROWS, LIMIT);
  await page.waitForFunction(() => document.querySelector('.row[data-index="0"]')?.textContent?.includes('question 0') ?? false, undefined, LIMIT);
  return performance.now() - started;
}

/** Opens the run with a fresh server (cold), `runs` times. */
async function coldOpens(context: BenchContext, root: string, page: Page, id: string, runs: number, label: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const view = await startView(context, root);
    try {
      samples.push(await openRun(page, view.url, id));
    } finally {
      await stopView(view.child);
    }
    context.log(`  ${label} ${i + 1}/${runs}: ${samples[i]?.toFixed(0)} ms`);
  }
  return samples;
}

export const viewerOpen1mScenario = {
  id: 'viewer-open-1m',
  title: '9b viewer: open a 1,000,000-row run',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    const notes: string[] = [];
    let indexed: number[] = [];
    let scanned: number[] = [];
    await withProject('viewer-open-1m', async (root, _browser, page) => {
      context.log('  writing a 1,000,000-row shard and merging it (unmeasured)');
      const shard = await writeShard(root);
      const id = await merge(context, root, shard);
      await rm(join(root, 'shards'), { recursive: true });
      const runDir = join(root, '.agentmark', 'runs', id);
      if (!(await readdir(runDir)).includes('view-index')) notes.push('the merged run has no view index');
      // One unmeasured open: the file cache, and the browser's first compile of the app.
      await coldOpens(context, root, page, id, 1, 'warm-up');
      indexed = await coldOpens(context, root, page, id, runs, 'from the index');
      await rm(join(runDir, 'view-index'), { recursive: true });
      scanned = await coldOpens(context, root, page, id, 1, 'without the index');
    });
    const metrics = [
      metric('open → first rows (fresh server, from the view index)', 'ms', indexed, { target: { value: 2000, source: 'issues 26, 30', text: '< 2 s' } }),
      metric('open → first rows without the index (results read whole)', 'ms', scanned),
    ];
    return { id: 'viewer-open-1m', title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details: { rows: ROWS } };
  },
};
