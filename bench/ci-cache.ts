/**
 * Scenario 15 (`ci-cache`): the response cache a CI job restores with actions/cache. A cache of
 * 100,000 answers (the 16 rows' of a small project, recorded live once, plus 99,984 others in
 * the same segment format) is archived with tar + gzip once; each measured run then restores it
 * into an empty folder (`tar -xzf`, what actions/cache does) and runs `agentmark ci --cache-only`
 * over the project (no git: its one prompt is `no base`), which opens the segments its rows'
 * keys fall in and answers every row from them. Interleaved with it, the baseline: the same
 * rows replayed by `run-experiment --cache-only` from the same restored cache (the project's
 * default `.agentmark/cache`, where both read it). Target: restore + open < 1 s (issue 36).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv } from './context.js';
import { measureNode } from './measure.js';
import { createBenchProject } from './project.js';
import { median, metric } from './report.js';
import type { Scenario } from './scenarios.js';

const ENTRIES = 100_000;
const ROWS = 16;

/** Filler answers in the cache's segment format: one JSON line per key, in `<first hex digit>.jsonl`. */
async function fillCache(dir: string, count: number): Promise<void> {
  const segments = new Map<string, string[]>();
  for (let i = 0; i < count; i += 1) {
    const key = createHash('sha256').update(`filler ${i}`).digest('hex');
    const response = { kind: 'text', text: `answer ${i}`, usage: { inputTokens: 12, outputTokens: 3 }, finishReason: 'stop', latencyMs: 100, cached: false, retries: 0 };
    const lines = segments.get(key[0] as string) ?? [];
    lines.push(JSON.stringify({ key, response }));
    segments.set(key[0] as string, lines);
  }
  for (const [digit, lines] of segments) await appendFile(join(dir, `${digit}.jsonl`), `${lines.join('\n')}\n`);
}

function timed(command: string, args: string[], cwd: string): number {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}`);
  return performance.now() - start;
}

export const ciCacheScenario: Scenario = {
  id: 'ci-cache',
  title: '15 ci: restore + open a 100k-answer cache',
  async run(context, runs) {
    const project = await createBenchProject(ROWS);
    const notes: string[] = [];
    const env = cliEnv(context.server);
    const recorded = join(project.dir, 'recorded-cache');
    const archive = join(project.dir, 'cache.tgz');
    const restored = join(project.dir, '.agentmark', 'cache');
    const ci = (cacheDir: string, only: boolean) =>
      measureNode([context.bin, 'ci', project.promptPath, '--allow-missing-base', '--cache-dir', cacheDir, '--quiet', '--format', 'json', ...(only ? ['--cache-only'] : [])], { cwd: project.dir, env, timeoutMs: 120_000 });
    try {
      const live = await ci(recorded, false);
      if (live.code !== 0) notes.push(`recording run: exit ${live.code}: ${live.stderr.slice(0, 200)}`);
      await fillCache(recorded, ENTRIES - ROWS);
      timed('tar', ['-czf', archive, '-C', recorded, '.'], project.dir);
      const restore: number[] = [];
      const open: number[] = [];
      const total: number[] = [];
      const baseline: number[] = [];
      const requestsBefore = context.server.requests;
      for (let i = 0; i < runs; i += 1) {
        await rm(restored, { recursive: true, force: true });
        await mkdir(restored, { recursive: true });
        const restoreMs = timed('tar', ['-xzf', archive, '-C', restored], project.dir);
        const run = await ci(restored, true);
        const report = JSON.parse(run.stdout || '{}') as { prompts?: Array<{ head?: { cached: number; rows: number } }> };
        const head = report.prompts?.[0]?.head;
        if (run.code !== 0 || head?.cached !== ROWS) notes.push(`ci --cache-only: exit ${run.code}, ${head?.cached ?? 0} of ${ROWS} rows cached`);
        const plain = await measureNode([context.bin, 'run-experiment', project.promptPath, '--cache-only', '--quiet', '--format', 'json'], { cwd: project.dir, env, timeoutMs: 120_000 });
        if (plain.code !== 0) notes.push(`run-experiment --cache-only: exit ${plain.code}`);
        baseline.push(plain.wallMs);
        restore.push(restoreMs);
        open.push(run.wallMs);
        total.push(restoreMs + run.wallMs);
      }
      if (context.server.requests !== requestsBefore) notes.push(`${context.server.requests - requestsBefore} model requests from --cache-only runs`);
      const entries = (await readdir(restored)).length;
      const target = { value: 1000, source: 'issue 36', text: '< 1 s' };
      return {
        id: 'ci-cache',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [metric('restore + open', 'ms', total, { target }), metric('tar -xzf (restore)', 'ms', restore), metric('ci --cache-only (open + 16 rows)', 'ms', open, { ideal: median(baseline), idealText: 'run-experiment --cache-only' }), metric('run-experiment --cache-only', 'ms', baseline)],
        details: { entries: ENTRIES, segmentFiles: entries, restoreMedianMs: Math.round(median(restore)), openMedianMs: Math.round(median(open)) },
      };
    } finally {
      await project.cleanup();
    }
  },
};
