/**
 * Bench scenarios 8 and 8b: `agentmark merge` of 4 shards of ~25,000 rows (issue 14: figures
 * only) and of 10 shards of ~100,000 rows (issue 30: ≤ 10 s).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { median, metric, type Metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';
import { resultRow, ResultsWriter, writeManifest, writeProjectFile } from './generated-runs.js';

/**
 * The shard of a row as `--shard` picks it, written here from its definition (sha256 of the
 * row's content as sorted-key JSON, the top 30 bits, modulo n, plus one) rather than imported:
 * if the two ever disagree, merge refuses the shards and the bench says so.
 */
function shardOf(row: Record<string, unknown>, shards: number): number {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted)
      : value !== null && typeof value === 'object' ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]))
        : value;
  const digest = createHash('sha256').update(JSON.stringify(sorted({ input: row.input, expectedOutput: row.expectedOutput, metadata: row.metadata }))).digest();
  const bits = ((digest[0] as number) * 2 ** 22) + ((digest[1] as number) << 14) + ((digest[2] as number) << 6) + ((digest[3] as number) >> 2);
  return (bits % shards) + 1;
}

/**
 * `shards` shard run folders as `run-experiment --shard i/n` leaves them, `rows` rows in all
 * (a verdict eval, a fifth failing, and a 1–5 score), each shard's results a little out of
 * order, each manifest with its integrity record.
 */
export async function createShardsProject(rows = 100_000, shards = 4): Promise<{ root: string; folders: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-merge-'));
  await writeProjectFile(root);
  const ids = Array.from({ length: shards }, (_, i) => `20261130-0000${String(i).padStart(2, '0')}.000-shard${i + 1}`);
  const folders = ids.map((id) => join(root, 'shards', id));
  for (const dir of folders) await mkdir(dir, { recursive: true });
  const outs = folders.map((dir) => new ResultsWriter(join(dir, 'results.jsonl')));
  const held: Array<Record<string, unknown> | undefined> = new Array<Record<string, unknown> | undefined>(shards).fill(undefined);
  for (let index = 0; index < rows; index += 1) {
    const row = resultRow(index, index % 5 !== 3, 1 + (index % 5));
    const shard = shardOf(row, shards) - 1;
    const out = outs[shard] as ResultsWriter;
    // Every other pair of rows swapped: finish order, not dataset order.
    const waiting = held[shard];
    if (waiting === undefined && index % 2 === 0) held[shard] = row;
    else {
      await out.write(row);
      if (waiting !== undefined) await out.write(waiting);
      held[shard] = undefined;
    }
  }
  for (const [shard, out] of outs.entries()) {
    const waiting = held[shard];
    if (waiting !== undefined) await out.write(waiting);
    const integrity = await out.end();
    await writeManifest(folders[shard] as string, { id: ids[shard] as string, rows: integrity.rows, integrity, shard: { index: shard + 1, count: shards } });
  }
  return { root, folders };
}

interface MergeSize {
  id: string;
  title: string;
  rows: number;
  shards: number;
  target?: { wallMs: number; source: string };
}

function mergeScenarioOf(size: MergeSize) {
  const per = (size.rows / size.shards).toLocaleString('en-US');
  return {
    id: size.id,
    title: size.title,
    defaultRuns: 3,
    async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
      context.log(`  writing ${size.shards} shards of ~${per} rows (unmeasured)`);
      const { root, folders } = await createShardsProject(size.rows, size.shards);
      const wall: number[] = [];
      const rss: number[] = [];
      const cpu: number[] = [];
      const notes: string[] = [];
      // With BENCH_OTHER_BIN (another build's bin, e.g. main's), each run is paired with one of it
      // on the same shards, in alternating order: on a loaded machine only the paired ratio counts.
      const other = process.env.BENCH_OTHER_BIN;
      const otherWall: number[] = [];
      const otherCpu: number[] = [];
      const ratios: number[] = [];
      const once = async (bin: string, out: string, label: string) => {
        // Exit 1: the merged gates fail (a fifth of the rows fail `exact`), as intended.
        const run = await measureNode([bin, 'merge', ...folders, '-o', out], { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 600_000 });
        context.log(`  ${label}: ${run.wallMs.toFixed(0)} ms (CPU ${run.cpuMs?.toFixed(0) ?? '?'} ms), peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB, exit ${run.code}`);
        if (run.code !== 1) notes.push(`${label}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
        const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8').catch(() => '{}')) as { summary?: { rows?: number }; integrity?: { rows?: number } };
        if (manifest.summary?.rows !== size.rows) notes.push(`${label}: merged run has ${manifest.summary?.rows ?? 'no'} rows, not ${size.rows}`);
        if (manifest.integrity?.rows !== size.rows) notes.push(`${label}: merged run's integrity record counts ${manifest.integrity?.rows ?? 'no'} rows, not ${size.rows}`);
        if (!(await readdir(out).catch((): string[] => [])).includes('view-index')) notes.push(`${label}: the merged run has no view index`);
        await rm(out, { recursive: true, force: true });
        return run;
      };
      try {
        for (let i = 0; i < runs; i += 1) {
          const theirs = other !== undefined && i % 2 === 0 ? await once(other, join(root, `other-${i}`), `run ${i + 1}/${runs}, the other build`) : undefined;
          const run = await once(context.bin, join(root, `merged-${i}`), `run ${i + 1}/${runs}`);
          const after = other !== undefined && i % 2 === 1 ? await once(other, join(root, `other-${i}`), `run ${i + 1}/${runs}, the other build`) : undefined;
          wall.push(run.wallMs);
          if (run.peakRssMb !== undefined) rss.push(run.peakRssMb);
          if (run.cpuMs !== undefined) cpu.push(run.cpuMs);
          const paired = theirs ?? after;
          if (paired !== undefined) {
            otherWall.push(paired.wallMs);
            ratios.push(run.wallMs / paired.wallMs);
            if (paired.cpuMs !== undefined) otherCpu.push(paired.cpuMs);
          }
        }
      } finally {
        await rm(root, { recursive: true, force: true });
      }
      const target = size.target;
      const metrics: Metric[] = [metric('wall', 'ms', wall, {
        ...(target ? { target: { value: target.wallMs, source: target.source, text: `≤ ${target.wallMs / 1000} s` } } : {}),
        ...(otherWall.length > 0 ? { ideal: median(otherWall), idealText: 'the other build' } : {}),
      })];
      if (rss.length > 0) metrics.push(metric('peak RSS', 'MB', rss));
      if (cpu.length > 0) metrics.push(metric('CPU', 'ms', cpu));
      if (otherWall.length > 0) metrics.push(metric('wall, the other build', 'ms', otherWall));
      if (otherCpu.length > 0) metrics.push(metric('CPU, the other build', 'ms', otherCpu));
      const pairs: Record<string, number> = ratios.length > 0 ? { pairedRatioMedian: Math.round(median(ratios) * 1000) / 1000 } : {};
      return { id: size.id, title: size.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details: { rows: size.rows, shards: size.shards, ...pairs } };
    },
  };
}

export const mergeScenario = mergeScenarioOf({ id: 'merge', title: '8 merge 4 shards of 25,000 rows', rows: 100_000, shards: 4 });

export const merge10x100kScenario = mergeScenarioOf({
  id: 'merge10x100k', title: '8b merge 10 shards of 100,000 rows', rows: 1_000_000, shards: 10, target: { wallMs: 10_000, source: 'issue 30' },
});
