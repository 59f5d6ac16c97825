/** The benchmark scenarios. Each runs the real CLI as a child process, the way a user does. */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureNode, type ChildRun } from './measure.js';
import { createBenchProject, type BenchProject } from './project.js';
import { median, metric, type Metric, type ScenarioResult } from './report.js';
import { cliEnv, type BenchContext } from './context.js';
import { WATCH_TITLE, watchScenario } from './watch.js';
import { compare1mScenario, compareScenario } from './compare.js';
import { merge10x100kScenario, mergeScenario } from './merge.js';
import { runsShow1mScenario } from './runs-show.js';
import { storePush1mScenario, storeRuns10kScenario } from './store-push.js';
import { viewerLiveScenario, viewerOpenScenario } from './viewer.js';
import { viewerOpen1mScenario } from './viewer-1m.js';
import { serveOpen1mScenario } from './serve-1m.js';
import { boundsScenario } from './bounds.js';
import { otelScenario } from './otel.js';
import { batchScenario } from './batch.js';
import { startupRunScenario } from './startup-run.js';
import { scale1mSpec } from './scale-1m.js';
import { floorMetrics, floorRuns, runSdkFloor } from './sdk-floor-run.js';
import { ciCacheScenario } from './ci-cache.js';
import { lspScenario } from './lsp.js';
import { sharedCacheScenario } from './shared-cache.js';
import { storeStreamScenario } from './store-stream.js';
import { rateLimitedScenarios, unlimitedAbScenario } from './rate-limited.js';
import { conversationScenario } from './conversation.js';

export interface Scenario {
  id: string;
  title: string;
  /** Default number of measured runs (overridden by --runs). */
  defaultRuns?: number;
  run(context: BenchContext, runs: number): Promise<ScenarioResult>;
}

/** `node -e 0`, measured now if the start-up scenario has not measured it in this bench run. */
export async function nodeStart(context: BenchContext): Promise<number> {
  if (context.nodeStartMs !== undefined) return context.nodeStartMs;
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) samples.push((await measureNode(['-e', '0'], { cwd: process.cwd(), env: {}, timeoutMs: 10_000 })).wallMs);
  context.nodeStartMs = median(samples);
  return context.nodeStartMs;
}

const startup: Scenario = {
  id: 'startup',
  title: '1 start-up',
  async run(context, runs) {
    const samples = { node: [] as number[], version: [] as number[], help: [] as number[] };
    const rss = { node: [] as number[], version: [] as number[], help: [] as number[] };
    const notes: string[] = [];
    const opts = { cwd: process.cwd(), env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 10_000 };
    // One unmeasured warm-up of each so the first sample does not pay for a cold file cache.
    await measureNode(['-e', '0'], opts);
    await measureNode([context.bin, '--version'], opts);
    for (let i = 0; i < runs; i += 1) {
      // Interleaved, so drift in the machine's load hits all three alike.
      const node = await measureNode(['-e', '0'], opts);
      const version = await measureNode([context.bin, '--version'], opts);
      const help = await measureNode([context.bin, '--help'], opts);
      for (const [key, run] of [['node', node], ['version', version], ['help', help]] as const) {
        samples[key].push(run.wallMs);
        if (run.peakRssMb !== undefined) rss[key].push(run.peakRssMb);
      }
      if (version.code !== 0 || !/^\d+\.\d+\.\d+/.test(version.stdout)) notes.push(`--version: exit ${version.code}, stdout ${JSON.stringify(version.stdout.slice(0, 80))}`);
      if (help.code !== 0 || !help.stdout.includes('Usage')) notes.push(`--help: exit ${help.code}`);
    }
    context.nodeStartMs = median(samples.node);
    const ideal = context.nodeStartMs;
    // The bin answers both from text written into it at build time (dist/bundle/agentmark.cjs).
    const target = { value: ideal * 1.3, source: 'issue 30', text: '≤ 1.3× node -e 0' };
    const metrics: Metric[] = [
      metric('node -e 0', 'ms', samples.node),
      metric('--version', 'ms', samples.version, { ideal, idealText: 'node -e 0', target }),
      metric('--help', 'ms', samples.help, { ideal, idealText: 'node -e 0', target }),
    ];
    if (rss.version.length > 0) metrics.push(metric('--version peak RSS', 'MB', rss.version, { ideal: median(rss.node), idealText: 'node -e 0' }));
    // Each run's ratio to the node -e 0 just before it, whose median shrugs off a load spike that
    // hits one side of a pair (on a busy 2-core machine the medians of the three lists do not).
    const paired = (key: 'version' | 'help'): number => Math.round(median(samples[key].map((ms, i) => ms / (samples.node[i] ?? ms))) * 100) / 100;
    const details = { versionRatioPairedMedian: paired('version'), helpRatioPairedMedian: paired('help') };
    return { id: 'startup', title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes: unique(notes), metrics, details };
  },
};

export interface ExperimentSpec {
  id: string;
  title: string;
  rows: number;
  latencyMs: number;
  concurrency: number;
  cached: boolean;
  wallTarget?: { value: number; source: string; text: string } | ((ideal: number) => { value: number; source: string; text: string });
  rssTarget?: { value: number; source: string; text: string };
  timeoutMs: number;
  /** An unmeasured warm-up run first (file cache, lazily compiled code paths). @default true */
  warmUp?: boolean;
  /**
   * Measure the bare keep-alive loop (bench/bare-loop.mjs) before each CLI run, as this
   * scenario's ideal; with `bareRatioTarget`, the CLI's median must be within that many times it.
   */
  bareLoop?: boolean;
  bareRatioTarget?: { ratio: number; source: string };
  /** With a bare-loop ideal and no `bareRatioTarget`: the wall row's target text (a figure, no verdict). */
  bareTargetText?: string;
  /**
   * Also run the AI SDK's floor (bench/sdk-floor.mjs, `do-generate-node`) before each CLI run
   * (at most `BENCH_FLOOR_RUNS` of them), and hold the CLI's wall to `ratio` × its median.
   */
  sdkFloor?: { ratio: number };
  /**
   * The start-up in a latency-bound ideal (rows × latency ÷ concurrency + start-up): `node`, a
   * bare `node -e 0`; `cli`, the CLI's own spawn → first request in the same runs, so the ratio
   * measures what the rows add; or `none`, the waiting alone, so the wall counted from spawn is
   * held to it (issue 30). The ratios against the others are reported too (details). @default 'node'
   */
  idealStartup?: 'node' | 'cli' | 'none';
  /**
   * Another scenario of this bench run whose peak RSS this one's is read against (flat memory:
   * the 1M-row run against the 100k one); the difference goes in `details`.
   */
  rssAgainst?: string;
}

// Compiled into .bench-dist/; the loop stays plain JavaScript in bench/.
const BARE_LOOP = fileURLToPath(new URL('../bench/bare-loop.mjs', import.meta.url));

/** One run of the bare loop against the same server: same requests, same concurrency. */
async function runBareLoop(context: BenchContext, spec: ExperimentSpec, notes: string[]): Promise<ChildRun> {
  context.server.latencyMs = spec.latencyMs;
  context.server.reset();
  const run = await measureNode([BARE_LOOP, context.server.url, String(spec.rows), String(spec.concurrency)], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH },
    timeoutMs: spec.timeoutMs,
  });
  if (run.code !== 0) notes.push(`bare loop: exit ${run.code}: ${firstLines(run.stderr || run.stdout)}`);
  if (context.server.requests !== spec.rows) notes.push(`bare loop: server saw ${context.server.requests} requests, expected ${spec.rows}`);
  return run;
}

/** One run of `run-experiment` over the generated project, checked for completeness. */
async function runExperimentOnce(
  context: BenchContext,
  project: BenchProject,
  spec: ExperimentSpec,
  notes: string[],
): Promise<{ run: ChildRun; requests: number; serverCpuMs: number; maxInFlight: number; firstRequestMs?: number; afterLastAnswerMs?: number }> {
  await project.clearRuns();
  context.server.latencyMs = spec.latencyMs;
  context.server.reset();
  const args = [
    context.bin,
    'run-experiment',
    project.promptPath,
    '--format',
    'jsonl',
    '--output',
    '/dev/null',
    '--quiet',
    '--concurrency',
    String(spec.concurrency),
    ...(spec.cached ? [] : ['--no-cache']),
  ];
  const run = await measureNode(args, { cwd: project.dir, env: cliEnv(context.server), timeoutMs: spec.timeoutMs });
  const requests = context.server.requests;
  const serverCpuMs = context.server.cpuMs();
  const maxInFlight = context.server.maxInFlight;
  const { firstRequestAt, lastAnswerAt } = context.server;
  const phases = {
    ...(firstRequestAt === undefined ? {} : { firstRequestMs: firstRequestAt - run.startedAt }),
    ...(lastAnswerAt === undefined ? {} : { afterLastAnswerMs: run.startedAt + run.wallMs - lastAnswerAt }),
  };
  if (run.timedOut) notes.push(`timed out after ${spec.timeoutMs} ms`);
  if (run.code !== 0) notes.push(`exit ${run.code}${run.signal ? ` (${run.signal})` : ''}: ${firstLines(run.stderr)}`);
  const written = await countResultRows(project.dir);
  if (written !== spec.rows) notes.push(`results.jsonl holds ${written} rows, expected ${spec.rows}`);
  if (!spec.cached && requests !== spec.rows) notes.push(`server saw ${requests} requests, expected ${spec.rows}`);
  return { run, requests, serverCpuMs, maxInFlight, ...phases };
}

function experimentScenario(spec: ExperimentSpec, defaultRuns?: number): Scenario {
  return {
    id: spec.id,
    title: spec.title,
    ...(defaultRuns === undefined ? {} : { defaultRuns }),
    async run(context, runs) {
      const notes: string[] = [];
      const details: ScenarioResult['details'] = {};
      const startMs = await nodeStart(context);
      context.log(`  generating ${spec.rows} rows`);
      const project = await createBenchProject(spec.rows);
      try {
        if (spec.cached) {
          context.log('  populating the cache (unmeasured run)');
          const populate = await runExperimentOnce(context, project, { ...spec, cached: true }, notes);
          details.populateRequests = populate.requests;
          if (populate.requests !== spec.rows) notes.push(`populating run made ${populate.requests} requests, expected ${spec.rows}`);
        } else if (spec.warmUp !== false) {
          // One unmeasured warm-up so every measured run sees the same warm file cache.
          await runExperimentOnce(context, project, spec, []);
        }
        const wall: number[] = [];
        const rss: number[] = [];
        const serverCpu: number[] = [];
        const firstRequest: number[] = [];
        const afterLastAnswer: number[] = [];
        const bare: number[] = [];
        const floor = { floorWall: [] as number[], floorCpu: [] as number[], floorRss: [] as number[], cliWall: [] as number[], cliCpu: [] as (number | undefined)[] };
        const floorCount = spec.sdkFloor ? floorRuns(runs) : 0;
        let requestsTotal = 0;
        let maxInFlight = 0;
        if (spec.bareLoop && spec.warmUp !== false) await runBareLoop(context, spec, []);
        if (floorCount > 0 && spec.warmUp !== false) await runSdkFloor(context, spec, []);
        for (let i = 0; i < runs; i += 1) {
          // Interleaved with the CLI's runs, so drift in the machine's load hits both alike.
          if (spec.bareLoop) {
            const loop = await runBareLoop(context, spec, notes);
            bare.push(loop.wallMs);
            context.log(`  bare loop ${i + 1}/${runs}: ${loop.wallMs.toFixed(0)} ms`);
          }
          if (i < floorCount) {
            const sdk = await runSdkFloor(context, spec, notes);
            floor.floorWall.push(sdk.wallMs);
            if (sdk.cpuMs !== undefined) floor.floorCpu.push(sdk.cpuMs);
            if (sdk.peakRssMb !== undefined) floor.floorRss.push(sdk.peakRssMb);
            context.log(`  AI SDK floor ${i + 1}/${floorCount}: ${sdk.wallMs.toFixed(0)} ms, CPU ${sdk.cpuMs?.toFixed(0) ?? '?'} ms`);
          }
          const result = await runExperimentOnce(context, project, spec, notes);
          context.log(`  run ${i + 1}/${runs}: ${result.run.wallMs.toFixed(0)} ms, peak RSS ${result.run.peakRssMb?.toFixed(0) ?? '?'} MB, ${result.requests} requests, first request at ${result.firstRequestMs?.toFixed(0) ?? '–'} ms, exit ${result.afterLastAnswerMs?.toFixed(0) ?? '–'} ms after the last answer`);
          wall.push(result.run.wallMs);
          floor.cliWall.push(result.run.wallMs);
          floor.cliCpu.push(result.run.cpuMs);
          if (result.run.peakRssMb !== undefined) rss.push(result.run.peakRssMb);
          serverCpu.push(result.serverCpuMs);
          if (result.firstRequestMs !== undefined) firstRequest.push(result.firstRequestMs);
          if (result.afterLastAnswerMs !== undefined) afterLastAnswer.push(result.afterLastAnswerMs);
          requestsTotal += result.requests;
          maxInFlight = Math.max(maxInFlight, result.maxInFlight);
        }
        if (spec.cached && requestsTotal !== 0) notes.push(`cached reruns made ${requestsTotal} model calls; expected 0`);
        details.rows = spec.rows;
        details.concurrency = spec.concurrency;
        details.latencyMs = spec.latencyMs;
        details.modelRequestsPerRun = requestsTotal / runs;
        details.serverMaxInFlight = maxInFlight;
        details.serverCpuMsMedian = Math.round(median(serverCpu));
        if (firstRequest.length > 0) details.spawnToFirstRequestMsMedian = Math.round(median(firstRequest));
        if (afterLastAnswer.length > 0) details.lastAnswerToExitMsMedian = Math.round(median(afterLastAnswer));
        details.serverCpuShareOfWall = Math.round((median(serverCpu) / median(wall)) * 100) / 100;
        const bareMs = bare.length > 0 ? median(bare) : undefined;
        const waiting = (spec.rows * spec.latencyMs) / spec.concurrency;
        const cliStart = firstRequest.length > 0 ? median(firstRequest) : undefined;
        const startup = spec.idealStartup === 'none' ? 0 : spec.idealStartup === 'cli' ? (cliStart ?? startMs) : startMs;
        const ideal = bareMs ?? waiting + startup;
        const startupText = spec.idealStartup === 'none' ? '' : ` + ${spec.idealStartup === 'cli' ? 'CLI' : 'node'} start-up`;
        const idealText =
          bareMs !== undefined
            ? 'bare keep-alive loop'
            : spec.latencyMs > 0
              ? `${spec.rows}×${spec.latencyMs} ms÷${spec.concurrency}${startupText}, from spawn`
              : 'node start-up';
        if (spec.latencyMs > 0 && bareMs === undefined) {
          // The same run against the other ideals: plus a bare node's start-up, plus the CLI's own.
          details.idealWithNodeStartupMs = Math.round(waiting + startMs);
          details.ratioToNodeStartupIdeal = Math.round((median(wall) / (waiting + startMs)) * 100) / 100;
          if (cliStart !== undefined) {
            details.idealWithCliStartupMs = Math.round(waiting + cliStart);
            details.ratioToCliStartupIdeal = Math.round((median(wall) / (waiting + cliStart)) * 100) / 100;
          }
        }
        const bareTarget =
          bareMs !== undefined && spec.bareRatioTarget
            ? { value: bareMs * spec.bareRatioTarget.ratio, source: spec.bareRatioTarget.source, text: `≤ ${spec.bareRatioTarget.ratio}× bare loop` }
            : undefined;
        const bareNote = bareMs !== undefined && spec.bareTargetText !== undefined ? { source: 'issue 38', text: spec.bareTargetText } : undefined;
        const wallTarget = bareTarget ?? bareNote ?? (typeof spec.wallTarget === 'function' ? spec.wallTarget(ideal) : spec.wallTarget);
        const metrics: Metric[] = [metric('wall', 'ms', wall, { ideal, idealText, ...(wallTarget ? { target: wallTarget } : {}) })];
        if (bareMs !== undefined) {
          metrics.push(metric('bare loop wall', 'ms', bare, { ideal: startMs, idealText: 'node start-up' }));
          // The per-row cost the CLI adds over the bare loop, start-up excluded from both.
          details.cliMsPerRow = Math.round(((median(wall) - startMs) / spec.rows) * 1000) / 1000;
          details.bareLoopMsPerRow = Math.round(((bareMs - startMs) / spec.rows) * 1000) / 1000;
        }
        if (spec.sdkFloor && floor.floorWall.length > 0) {
          const sdk = floorMetrics(floor, spec.sdkFloor.ratio);
          metrics.push(...sdk.metrics);
          Object.assign(details, sdk.details);
        }
        if (rss.length > 0) {
          metrics.push(metric('peak RSS', 'MB', rss, spec.rssTarget ? { target: spec.rssTarget } : {}));
          context.peakRssMb[spec.id] = median(rss);
          const against = spec.rssAgainst === undefined ? undefined : context.peakRssMb[spec.rssAgainst];
          if (against !== undefined) {
            details[`peakRssMbOf_${spec.rssAgainst}`] = Math.round(against);
            details.peakRssGrowthMb = Math.round(median(rss) - against);
          }
        }
        if (spec.cached) {
          metrics.push(metric('model calls', 'count', [requestsTotal], { target: { value: 1, source: 'issue 6', text: '= 0' } }));
        }
        return { id: spec.id, title: spec.title, status: notes.length === 0 ? 'ok' : 'failed', notes: unique(notes), metrics, details };
      } finally {
        await project.cleanup();
      }
    },
  };
}

const overhead = experimentScenario({
  id: 'overhead',
  title: '2 overhead (1k rows, 0 ms, c=50)',
  rows: 1000,
  latencyMs: 0,
  concurrency: 50,
  cached: false,
  wallTarget: { value: 1000, source: 'issue 30', text: '≤ 1.0 s' },
  timeoutMs: 120_000,
  bareLoop: true,
});

const overhead10k = experimentScenario({
  id: 'overhead10k',
  title: '2b overhead (10k rows, 0 ms, c=50)',
  rows: 10_000,
  latencyMs: 0,
  concurrency: 50,
  cached: false,
  timeoutMs: 300_000,
  bareLoop: true,
  // Issue 38 replaced issue 30's "≤ 2× the bare loop" (the AI SDK's provider alone is past it).
  bareTargetText: "figure; issue 38's target is the AI SDK floor row",
  sdkFloor: { ratio: 1.3 },
});

const latency = experimentScenario({
  id: 'latency',
  title: '3 latency-bound (1k rows, 100 ms, c=50)',
  rows: 1000,
  latencyMs: 100,
  concurrency: 50,
  cached: false,
  wallTarget: (ideal) => ({ value: ideal * 1.15, source: 'issue 30', text: `≤ 1.15× ideal (${(ideal * 1.15 / 1000).toFixed(2)} s)` }),
  idealStartup: 'none',
  timeoutMs: 120_000,
});

const scale = experimentScenario(
  {
    id: 'scale',
    title: '4 scale (100k rows, 0 ms, c=100)',
    rows: 100_000,
    latencyMs: 0,
    concurrency: 100,
    cached: false,
    rssTarget: { value: 250, source: 'issue 3', text: '< 250 MB' },
    timeoutMs: 30 * 60_000,
    // 100,000 rows take minutes; a warm-up would double that for a file cache already warm.
    warmUp: false,
    bareLoop: true,
  },
  3,
);


const scale1m = experimentScenario(scale1mSpec, 1);

const cached = experimentScenario({
  id: 'cached',
  title: '5 cached rerun (1k rows, c=50)',
  rows: 1000,
  latencyMs: 0,
  concurrency: 50,
  cached: true,
  // No figure is given for a cached rerun; it must not be slower than the live run of scenario 2.
  wallTarget: { value: 1500, source: 'scenario 2 (issue 3)', text: '< 1.5 s' },
  timeoutMs: 120_000,
});

const watch: Scenario = {
  id: 'watch',
  title: WATCH_TITLE,
  run: (context, runs) => watchScenario(context, runs),
};

export const scenarios: Scenario[] = [startup, startupRunScenario, overhead, overhead10k, storeStreamScenario, latency, scale, scale1m, cached, watch, compareScenario, compare1mScenario, mergeScenario, merge10x100kScenario, runsShow1mScenario, viewerOpenScenario, viewerOpen1mScenario, viewerLiveScenario, boundsScenario, otelScenario, batchScenario('openai', 13), batchScenario('anthropic', 14), ciCacheScenario, sharedCacheScenario, ...rateLimitedScenarios, unlimitedAbScenario, conversationScenario, lspScenario, storePush1mScenario, storeRuns10kScenario, serveOpen1mScenario];

async function countResultRows(projectDir: string): Promise<number> {
  const runsDir = join(projectDir, '.agentmark', 'runs');
  const ids = await readdir(runsDir).catch(() => [] as string[]);
  let total = 0;
  for (const id of ids) {
    // Streamed: a million rows' file is larger than a string may be.
    try {
      for await (const chunk of createReadStream(join(runsDir, id, 'results.jsonl')) as AsyncIterable<Buffer>) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) total += 1;
      }
    } catch {
      // no results file: no rows
    }
  }
  return total;
}

function firstLines(text: string): string {
  return text.trim().split('\n').slice(0, 3).join(' | ').slice(0, 300) || '(no stderr)';
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
