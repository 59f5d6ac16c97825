/**
 * The AI SDK's floor as an ideal of scenarios 2b and 4b (issue 38): `bench/sdk-floor.mjs
 * <url> <rows> <concurrency> do-generate-node`, the same requests through `@ai-sdk/openai`'s
 * `doGenerate` with the CLI's node:http fetch and nothing else, run as its own process
 * interleaved with the CLI's runs (as the bare loop is), so load drift hits both alike.
 *
 * A million-row floor run takes minutes, so the number of floor runs can be capped with
 * `BENCH_FLOOR_RUNS` (a whole number ≥ 1, or 0 to leave the floor out); by default each measured
 * CLI run has one floor run before it.
 */
import { fileURLToPath } from 'node:url';
import { measureNode, type ChildRun } from './measure.js';
import { median, metric, type Metric } from './report.js';
import type { BenchContext } from './context.js';

// Compiled into .bench-dist/; the floor stays plain JavaScript in bench/ (it imports dist/).
const SDK_FLOOR = fileURLToPath(new URL('../bench/sdk-floor.mjs', import.meta.url));

export interface FloorSpec {
  rows: number;
  latencyMs: number;
  concurrency: number;
  timeoutMs: number;
}

/** How many floor runs beside `runs` CLI runs: `BENCH_FLOOR_RUNS` caps it, else one per CLI run. */
export function floorRuns(runs: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_FLOOR_RUNS;
  if (raw === undefined || raw === '') return runs;
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap < 0) throw new Error(`BENCH_FLOOR_RUNS takes a whole number of at least 0, got ${raw}`);
  return Math.min(runs, cap);
}

/** One run of the SDK floor against the bench server: same requests, same concurrency. */
export async function runSdkFloor(context: BenchContext, spec: FloorSpec, notes: string[]): Promise<ChildRun> {
  context.server.latencyMs = spec.latencyMs;
  context.server.reset();
  const run = await measureNode([SDK_FLOOR, context.server.url, String(spec.rows), String(spec.concurrency), 'do-generate-node'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    timeoutMs: spec.timeoutMs,
  });
  if (run.code !== 0) notes.push(`SDK floor: exit ${run.code}: ${(run.stderr || run.stdout).trim().slice(0, 300)}`);
  if (context.server.requests !== spec.rows) notes.push(`SDK floor: server saw ${context.server.requests} requests, expected ${spec.rows}`);
  return run;
}

/** What the floor runs and the CLI runs beside them (same index: the floor ran just before). */
export interface FloorSamples {
  floorWall: number[];
  floorCpu: number[];
  floorRss: number[];
  cliWall: number[];
  cliCpu: (number | undefined)[];
}

const FLOOR_TEXT = "the AI SDK's floor, sdk-floor.mjs";

/**
 * The rows: "wall vs the AI SDK's floor" (the CLI's wall against the floor's median, held to
 * `ratio`), the floor's own wall and, when GNU time measured it, the CLI's CPU against the
 * floor's. Details: the ratios of each pair (the floor run just before a CLI run), whose median
 * shrugs off a load spike that hits one side of a pair.
 */
export function floorMetrics(samples: FloorSamples, ratio: number): { metrics: Metric[]; details: Record<string, number> } {
  const floor = median(samples.floorWall);
  const metrics: Metric[] = [
    metric("wall vs the AI SDK's floor", 'ms', samples.cliWall, {
      ideal: floor,
      idealText: FLOOR_TEXT,
      target: { value: floor * ratio, source: 'issue 38', text: `≤ ${ratio}× the AI SDK's floor` },
    }),
    metric("AI SDK's floor wall", 'ms', samples.floorWall),
  ];
  const details: Record<string, number> = { floorRuns: samples.floorWall.length };
  const pairs = samples.floorWall.map((floorMs, i) => ({ floorMs, cliMs: samples.cliWall[i], floorCpu: samples.floorCpu[i], cliCpu: samples.cliCpu[i] }));
  const wallRatios = pairs.flatMap((p) => (p.cliMs === undefined ? [] : [p.cliMs / p.floorMs]));
  if (wallRatios.length > 0) details.floorWallRatioPairedMedian = round3(median(wallRatios));
  const cpuRatios = pairs.flatMap((p) => (p.cliCpu === undefined || p.floorCpu === undefined ? [] : [p.cliCpu / p.floorCpu]));
  if (cpuRatios.length > 0) details.floorCpuRatioPairedMedian = round3(median(cpuRatios));
  const cliCpu = samples.cliCpu.filter((ms): ms is number => ms !== undefined);
  if (cliCpu.length > 0 && samples.floorCpu.length > 0) {
    metrics.push(metric("CPU vs the AI SDK's floor", 'ms', cliCpu, {
        ideal: median(samples.floorCpu),
        idealText: "the floor's CPU, user + sys",
        // A figure (no verdict) shown beside the wall's: a loaded machine disturbs it less.
        target: { source: 'issue 38', text: 'figure; the wall row is the target' },
      }));
  }
  if (samples.floorRss.length > 0) details.floorPeakRssMbMedian = Math.round(median(samples.floorRss));
  return { metrics, details };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
