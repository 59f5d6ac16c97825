/**
 * Bench scenarios of the team store (issue 37), against a PostgreSQL server started here
 * (postgres-server.ts, Debian's binaries):
 * - store-push-1m: `agentmark runs push` of a generated 1,000,000-row run into a fresh database,
 *   interleaved with `psql \copy` of the same results file into a plain one-column table (the
 *   least a client can do to load those bytes): wall and peak RSS, target ≤ 2× psql, ≤ 250 MB.
 * - store-runs-10k: `agentmark runs --format json` over a store holding 10,000 runs: < 1 s.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { median, metric, type Metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';
import { writeProjectFile, writeRun } from './generated-runs.js';
import { postgresBinDir, startPostgres } from './postgres-server.js';

const ROWS = 1_000_000;
const ID = '20261130-000000.000-aaaaaa';
const RSS_TARGET_MB = 250;

/** psql with the URL's password in its environment; exits non-zero on any error. */
function psql(url: string, command: string): { ms: number; ok: boolean; stderr: string } {
  const started = performance.now();
  // On stdin: a 10,000-row INSERT is longer than an argument may be.
  const run = spawnSync(join(postgresBinDir(), 'psql'), [url, '-v', 'ON_ERROR_STOP=1', '-q', '-f', '-'], { encoding: 'utf8', input: `${command}\n`, maxBuffer: 1 << 26 });
  return { ms: performance.now() - started, ok: run.status === 0, stderr: run.stderr ?? String(run.error) };
}

export const storePush1mScenario = {
  id: 'store-push-1m',
  title: '21 runs push of a 1,000,000-row run vs psql \\copy',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    context.log('  writing a 1,000,000-row run and starting PostgreSQL (unmeasured)');
    const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-push-'));
    const server = await startPostgres();
    const notes: string[] = [];
    const push: number[] = [];
    const pushRss: number[] = [];
    const copy: number[] = [];
    // BENCH_OTHER_BIN (another build's dist/bundle/agentmark.cjs): its push beside this one's, each run, for paired ratios.
    const other = process.env.BENCH_OTHER_BIN;
    const otherPush: number[] = [];
    const otherRss: number[] = [];
    try {
      await writeProjectFile(root);
      await writeRun(root, ID, ROWS, 1, 0.8);
      const results = join(root, '.agentmark', 'runs', ID, 'results.jsonl');
      for (let i = 0; i < runs; i += 1) {
        const plain = await server.createDatabase(`plain_${i}`);
        psql(plain, 'CREATE TABLE plain (line text)');
        // csv with a quote and delimiter no JSON line holds: each line loads as it is (text format would read its backslashes).
        const copied = psql(plain, `\\copy plain (line) FROM '${results}' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`);
        if (!copied.ok) notes.push(`psql \\copy: ${copied.stderr.slice(0, 200)}`);
        copy.push(copied.ms);
        const pushWith = async (bin: string, database: string) => {
          const url = await server.createDatabase(database);
          const env = { PATH: process.env.PATH, NO_COLOR: '1', AGENTMARK_STORE_URL: url };
          await measureNode([bin, 'store', 'migrate'], { cwd: root, env, timeoutMs: 60_000 });
          const run = await measureNode([bin, 'runs', 'push', ID], { cwd: root, env, timeoutMs: 900_000 });
          if (run.code !== 0 || !run.stdout.startsWith(`pushed ${ID}: ${ROWS} rows`)) notes.push(`push (${bin}): exit ${run.code}: ${run.stderr.slice(-200)}`);
          return run;
        };
        // Alternating which build goes first, so a drift in load favours neither.
        const theirs = other !== undefined && i % 2 === 0 ? await pushWith(other, `other_${i}`) : undefined;
        const run = await pushWith(context.bin, `push_${i}`);
        const then = other !== undefined && i % 2 === 1 ? await pushWith(other, `other_${i}`) : theirs;
        push.push(run.wallMs);
        if (run.peakRssMb !== undefined) pushRss.push(run.peakRssMb);
        if (then !== undefined) {
          otherPush.push(then.wallMs);
          if (then.peakRssMb !== undefined) otherRss.push(then.peakRssMb);
        }
        const beside = then === undefined ? '' : `, BENCH_OTHER_BIN's push ${then.wallMs.toFixed(0)} ms (peak RSS ${then.peakRssMb?.toFixed(0) ?? '?'} MB)`;
        context.log(`  ${i + 1}/${runs}: push ${run.wallMs.toFixed(0)} ms (peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB), psql \\copy ${copied.ms.toFixed(0)} ms${beside}`);
      }
    } finally {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
    const metrics: Metric[] = [
      metric('wall (runs push)', 'ms', push, { ideal: median(copy), idealText: 'psql \\copy of results.jsonl', target: { value: 2 * median(copy), source: 'issue 37', text: '≤ 2 × psql \\copy' } }),
      metric('wall (psql \\copy)', 'ms', copy),
    ];
    if (pushRss.length > 0) metrics.push(metric('peak RSS (runs push)', 'MB', pushRss, { target: { value: RSS_TARGET_MB, source: 'issue 37', text: `≤ ${RSS_TARGET_MB} MB (flat)` } }));
    if (otherPush.length > 0) metrics.push(metric('wall (runs push, BENCH_OTHER_BIN)', 'ms', otherPush, { ideal: median(copy), idealText: 'psql \\copy of results.jsonl' }));
    if (otherRss.length > 0) metrics.push(metric('peak RSS (runs push, BENCH_OTHER_BIN)', 'MB', otherRss));
    return { id: this.id, title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details: { rows: ROWS } };
  },
};

const LISTED = 10_000;

export const storeRuns10kScenario = {
  id: 'store-runs-10k',
  title: '22 runs over 10,000 runs in the store',
  defaultRuns: 5,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-runs-'));
    const server = await startPostgres();
    const notes: string[] = [];
    const wall: number[] = [];
    try {
      await writeProjectFile(root);
      const url = await server.createDatabase('runs');
      const env = { PATH: process.env.PATH, NO_COLOR: '1', AGENTMARK_STORE_URL: url };
      await measureNode([context.bin, 'store', 'migrate'], { cwd: root, env, timeoutMs: 60_000 });
      // 10,000 manifests as a finished run's, inserted in one statement (unmeasured).
      const manifest = (k: number): string => JSON.stringify({ id: `20261130-${String(k).padStart(6, '0')}.000-aaaaaa`, prompt: { path: 'prompts/p.prompt.mdx', hash: 'a'.repeat(64), name: 'p' }, model: 'openai/gpt-4o-mini', settings: {}, options: {}, startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:01:00.000Z', status: 'completed', summary: { rows: 100, errored: 0, evals: [] }, integrity: { rows: 100, sha256: 'b'.repeat(64) } }).replace(/'/g, "''");
      const values = Array.from({ length: LISTED }, (_, k) => `('20261130-${String(k).padStart(6, '0')}.000-aaaaaa', 'prompts/p.prompt.mdx', 'main', '${'c'.repeat(40)}', 'completed', '2026-11-30T00:00:00.000Z', '${manifest(k)}')`);
      const inserted = psql(url, `INSERT INTO agentmark_runs (id, prompt_path, git_branch, git_commit, status, started_at, manifest) VALUES ${values.join(',')}`);
      if (!inserted.ok) notes.push(`insert: ${inserted.stderr.slice(0, 200)}`);
      for (let i = 0; i < runs; i += 1) {
        const run = await measureNode([context.bin, 'runs', '--format', 'json'], { cwd: root, env, timeoutMs: 60_000 });
        const listed = run.code === 0 ? (JSON.parse(run.stdout) as unknown[]).length : 0;
        if (listed !== LISTED) notes.push(`runs: exit ${run.code}, ${listed} runs listed: ${run.stderr.slice(0, 200)}`);
        wall.push(run.wallMs);
        context.log(`  ${i + 1}/${runs}: ${run.wallMs.toFixed(0)} ms`);
      }
    } finally {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
    return { id: this.id, title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics: [metric('wall (runs)', 'ms', wall, { target: { value: 1000, source: 'issue 37', text: '< 1 s' } })], details: { runs: LISTED } };
  },
};
