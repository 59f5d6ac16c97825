/**
 * Scenarios 13 and 14: `run-experiment --batch` on 10,000 rows, through OpenAI's Batch API
 * (`openai/bench-model`) and through Anthropic's Message Batches API (`anthropic/claude-haiku-4-5`,
 * with `@ai-sdk/anthropic` installed in the project as a user would), each interleaved with the
 * same rows run live. The bench server ends a batch at its first poll, so the batch run's wall
 * is the CLI's own work (request files, submit, one poll, download, scoring and storing every
 * row) plus one poll wait (`--batch-poll 0.01`).
 *
 * Each batch run must exit 0 (every row answered, every answer right), write every row with
 * `batch: true`, make no live call, and make exactly the batch traffic expected: one job per
 * 50,000 rows, each uploaded (OpenAI), created and downloaded once, with one request line per row.
 */
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { measureNode, type ChildRun } from './measure.js';
import { createBenchProject, type BenchProject } from './project.js';
import { median, metric, type Metric, type ScenarioResult } from './report.js';
import { cliEnv, type BenchContext } from './context.js';
import type { BatchStats } from './server.js';

const ROWS = 10_000;
/** The CLI's default batch limit (requests per job). */
const ROWS_PER_JOB = 50_000;
const TIMEOUT_MS = 300_000;

type Provider = 'openai' | 'anthropic';

const MODELS: Record<Provider, string> = { openai: 'openai/bench-model', anthropic: 'anthropic/claude-haiku-4-5' };

export function batchScenario(provider: Provider, number: number): { id: string; title: string; run: (context: BenchContext, runs: number) => Promise<ScenarioResult> } {
  const id = `batch-${provider}`;
  const title = `${number} --batch ${provider} (${ROWS / 1000}k rows)`;
  return { id, title, run: (context, runs) => run(context, runs, provider, id, title) };
}

async function run(context: BenchContext, runs: number, provider: Provider, id: string, title: string): Promise<ScenarioResult> {
  const notes: string[] = [];
  const details: ScenarioResult['details'] = { rows: ROWS, model: MODELS[provider] };
  const project = await createBenchProject(ROWS);
  try {
    await useModel(project, MODELS[provider], context.bin);
    context.server.latencyMs = 0;
    // One unmeasured live run so every measured run sees the same warm file cache.
    await runOnce(context, project, provider, 'live', []);
    const live: ChildRun[] = [];
    const batch: ChildRun[] = [];
    const jobs = Math.ceil(ROWS / ROWS_PER_JOB);
    for (let i = 0; i < runs; i += 1) {
      // Interleaved, so drift in the machine's load hits both alike.
      const liveRun = await runOnce(context, project, provider, 'live', notes);
      live.push(liveRun.run);
      const batchRun = await runOnce(context, project, provider, 'batch', notes);
      batch.push(batchRun.run);
      const stats = batchRun.stats;
      const expected: BatchStats = { uploads: provider === 'openai' ? jobs : 0, creates: jobs, lines: ROWS, polls: stats.polls, downloads: jobs, cancels: 0 };
      if (JSON.stringify(stats) !== JSON.stringify(expected)) notes.push(`batch traffic ${JSON.stringify(stats)}, expected ${JSON.stringify(expected)}`);
      if (stats.polls < jobs) notes.push(`${stats.polls} polls for ${jobs} jobs`);
      details.batchPollsPerRun = stats.polls;
      context.log(
        `  run ${i + 1}/${runs}: live ${liveRun.run.wallMs.toFixed(0)} ms (${liveRun.run.peakRssMb?.toFixed(0) ?? '?'} MB), batch ${batchRun.run.wallMs.toFixed(0)} ms (${batchRun.run.peakRssMb?.toFixed(0) ?? '?'} MB), ${stats.creates} job, ${stats.lines} lines`,
      );
    }
    details.batchJobsPerRun = jobs;
    const liveMs = median(live.map((r) => r.wallMs));
    const metrics: Metric[] = [
      metric('batch wall', 'ms', batch.map((r) => r.wallMs), { ideal: liveMs, idealText: 'the same rows live' }),
      metric('live wall', 'ms', live.map((r) => r.wallMs)),
    ];
    const rss = (runs: ChildRun[]): number[] => runs.flatMap((r) => (r.peakRssMb === undefined ? [] : [r.peakRssMb]));
    if (rss(batch).length > 0) {
      const liveRss = rss(live);
      metrics.push(metric('batch peak RSS', 'MB', rss(batch), liveRss.length > 0 ? { ideal: median(liveRss), idealText: 'the same rows live' } : {}));
    }
    if (rss(live).length > 0) metrics.push(metric('live peak RSS', 'MB', rss(live)));
    return { id, title, status: notes.length === 0 ? 'ok' : 'failed', notes: [...new Set(notes)], metrics, details };
  } finally {
    await project.cleanup();
  }
}

/** One run of the project, live (`--concurrency 50`) or `--batch`, checked for completeness. */
async function runOnce(
  context: BenchContext,
  project: BenchProject,
  provider: Provider,
  mode: 'live' | 'batch',
  notes: string[],
): Promise<{ run: ChildRun; stats: BatchStats }> {
  await project.clearRuns();
  context.server.reset();
  const how = mode === 'live' ? ['--concurrency', '50'] : ['--batch', '--batch-poll', '0.01'];
  const args = [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--no-cache', ...how];
  const env = { ...cliEnv(context.server), ANTHROPIC_BASE_URL: context.server.url, ANTHROPIC_API_KEY: 'bench' };
  const run = await measureNode(args, { cwd: project.dir, env, timeoutMs: TIMEOUT_MS });
  const stats = { ...context.server.batches[provider] };
  const requests = context.server.requests;
  const prefix = `${mode}: `;
  if (run.timedOut) notes.push(`${prefix}timed out after ${TIMEOUT_MS} ms`);
  if (run.code !== 0) notes.push(`${prefix}exit ${run.code}${run.signal ? ` (${run.signal})` : ''}: ${run.stderr.trim().split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
  const rows = await resultRows(project.dir);
  if (rows.count !== ROWS) notes.push(`${prefix}results.jsonl holds ${rows.count} rows, expected ${ROWS}`);
  if (mode === 'batch') {
    if (rows.batched !== rows.count) notes.push(`${prefix}${rows.count - rows.batched} rows without batch: true`);
    if (requests !== 0) notes.push(`${prefix}${requests} live model calls, expected none`);
  } else if (requests !== ROWS) notes.push(`${prefix}server saw ${requests} live requests, expected ${ROWS}`);
  return { run, stats };
}

/** Points the project's prompt at `model`, and installs @ai-sdk/anthropic in it (a link to ours) for Anthropic models. */
async function useModel(project: BenchProject, model: string, bin: string): Promise<void> {
  const promptFile = join(project.dir, project.promptPath);
  await writeFile(promptFile, (await readFile(promptFile, 'utf8')).replace('openai/bench-model', model));
  const jsonFile = join(project.dir, 'agentmark.json');
  const json = JSON.parse(await readFile(jsonFile, 'utf8')) as { builtInModels?: string[] };
  json.builtInModels = [...new Set([...(json.builtInModels ?? []), model])];
  await writeFile(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
  if (!model.startsWith('anthropic/')) return;
  // dist/bundle/agentmark.cjs → the repository, whose devDependencies hold @ai-sdk/anthropic.
  const installed = resolve(dirname(bin), '..', '..', 'node_modules', '@ai-sdk', 'anthropic');
  const link = join(project.dir, 'node_modules', '@ai-sdk', 'anthropic');
  await mkdir(dirname(link), { recursive: true });
  await symlink(installed, link, 'dir');
}

/** Rows in the project's run(s), and how many of them say `batch: true`. */
async function resultRows(projectDir: string): Promise<{ count: number; batched: number }> {
  const runsDir = join(projectDir, '.agentmark', 'runs');
  let count = 0;
  let batched = 0;
  for (const runId of await readdir(runsDir).catch(() => [] as string[])) {
    const text = await readFile(join(runsDir, runId, 'results.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      count += 1;
      if (line.includes('"batch":true')) batched += 1;
    }
  }
  return { count, batched };
}
