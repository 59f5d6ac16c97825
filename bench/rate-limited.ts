/**
 * Scenarios 15–17: the CLI against a provider's rate limit (issue 38), with default flags
 * (`--concurrency 20`) and the bench server enforcing the limit with OpenAI's headers
 * (rate-limit-bucket.ts: one second of the per-minute rate at once, refilled continuously).
 *
 * - `ratelimit-rpm`: 2,000 rows, 6,000 RPM, 20 ms answers: ideal 2,000 ÷ 100/s = 20 s;
 * - `ratelimit-tpm`: 10,000 rows × 300 tokens at 1,000,000 TPM (no request limit), the figures:
 *   token-bound, ideal 10,000 × 300 ÷ (1,000,000 ÷ 60)/s = 180 s; one measured run by default;
 * - `ratelimit-halved`: 1,000 rows at 6,000 RPM, halved to 3,000 RPM 4 s in: ideal 4 s + 600 ÷ 50/s = 16 s;
 *   the server's accepted rate 2 s after the change says how fast the run adapted.
 *
 * Each run checks its outcome: exit 0, every row in results.jsonl, no errored row. The wall
 * counts from the spawn (held to the target) and from the first request the server saw.
 *
 * `unlimited-ab`: scenario 2b (10k rows, 0 ms, c=50, no limit) run alternately with this build
 * and another (`BENCH_OTHER_BIN`, e.g. a copy of main's `dist/bundle/agentmark.cjs`): the
 * limiter must cost nothing where there is no limit.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { createBenchProject } from './project.js';
import { median, metric, type Metric, type ScenarioResult } from './report.js';
import { cliEnv } from './context.js';
import type { Scenario } from './scenarios.js';

interface LimitSpec {
  id: string;
  title: string;
  rows: number;
  latencyMs: number;
  rpm?: number;
  tpm?: number;
  tokensPerAnswer?: number;
  /** The server halves its request limit this long after the first request. */
  halveAfterMs?: number;
  idealMs: number;
  wallRatio: number;
  defaultRuns: number;
}

function limitScenario(spec: LimitSpec): Scenario {
  return {
    id: spec.id,
    title: spec.title,
    defaultRuns: spec.defaultRuns,
    async run(context, runs) {
      const notes: string[] = [];
      const project = await createBenchProject(spec.rows);
      const walls: number[] = [];
      const limited: number[] = [];
      const refusedShare: number[] = [];
      const errored: number[] = [];
      const afterHalving: number[] = [];
      const refusedAfterHalving: number[] = [];
      const settings = { ...(spec.rpm === undefined ? {} : { rpm: spec.rpm }), ...(spec.tpm === undefined ? {} : { tpm: spec.tpm }) };
      try {
        for (let i = 0; i < runs; i += 1) {
          await project.clearRuns();
          context.server.latencyMs = spec.latencyMs;
          context.server.tokensPerAnswer = spec.tokensPerAnswer ?? 10;
          context.server.reset();
          // A fresh key for each run: its buckets start full, as a key unused for a minute is.
          context.server.setRateLimit(undefined);
          context.server.setRateLimit(settings);
          let halving: ReturnType<typeof setInterval> | undefined;
          let halvedAt: number | undefined;
          let refusedAtHalving = 0;
          if (spec.halveAfterMs !== undefined && spec.rpm !== undefined) {
            const rpm = spec.rpm;
            halving = setInterval(() => {
              const first = context.server.firstRequestAt;
              if (first === undefined || performance.now() - first < (spec.halveAfterMs ?? 0)) return;
              context.server.setRateLimit({ ...settings, rpm: rpm / 2 });
              halvedAt = performance.now();
              refusedAtHalving = context.server.refused;
              clearInterval(halving);
            }, 5);
          }
          const args = [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--no-cache'];
          const run = await measureNode(args, { cwd: project.dir, env: cliEnv(context.server), timeoutMs: Math.max(300_000, spec.idealMs * 3) });
          if (halving !== undefined) clearInterval(halving);
          const refused = context.server.refused;
          const requests = context.server.requests;
          const first = context.server.firstRequestAt ?? run.startedAt;
          const last = context.server.lastAnswerAt ?? run.startedAt + run.wallMs;
          walls.push(run.wallMs);
          limited.push(last - first);
          refusedShare.push(refused / Math.max(1, requests + refused));
          const rows = await resultRows(project.dir);
          const bad = rows.filter((row) => row.error !== undefined).length;
          errored.push(bad);
          if (run.code !== 0) notes.push(`exit ${run.code}: ${run.stderr.slice(0, 200)}`);
          if (rows.length !== spec.rows) notes.push(`results.jsonl holds ${rows.length} rows, expected ${spec.rows}`);
          if (halvedAt !== undefined) {
            // The rate the server let through from 2 s after the change to the end: the run's pace once adapted.
            const accepted = context.server.acceptedAt.filter((at) => at >= (halvedAt ?? 0) + 2000);
            const span = (accepted.at(-1) ?? 0) - (accepted[0] ?? 0);
            if (accepted.length > 1 && span > 0) afterHalving.push(((accepted.length - 1) / span) * 60_000);
            refusedAfterHalving.push(refused - refusedAtHalving);
          }
          context.log(
            `  run ${i + 1}/${runs}: ${run.wallMs.toFixed(0)} ms (first request → last answer ${(last - first).toFixed(0)} ms), ${requests} answered, ${refused} refused, ${bad} errored rows`,
          );
        }
      } finally {
        context.server.setRateLimit(undefined);
        context.server.tokensPerAnswer = 10;
        await project.cleanup();
      }
      const ideal = spec.idealMs;
      const metrics: Metric[] = [
        metric('wall from spawn', 'ms', walls, {
          ideal,
          idealText: 'rows ÷ allowed rate',
          target: { value: ideal * spec.wallRatio, source: 'issue 38', text: `≤ ${spec.wallRatio}× ideal` },
        }),
        metric('first request → last answer', 'ms', limited, { ideal, idealText: 'rows ÷ allowed rate' }),
        metric('errored rows', 'count', errored, { target: { value: 1, source: 'issue 38', text: '= 0' } }),
        metric('refused share of requests', 'count', refusedShare.map((share) => share * 100), { target: { value: 2.0001, source: 'issue 38', text: '≤ 2%' } }),
      ];
      if (afterHalving.length > 0) {
        metrics.push(metric('accepted RPM from 2 s after halving', 'count', afterHalving, { ideal: (spec.rpm ?? 0) / 2, idealText: 'the halved limit' }));
        metrics.push(metric('refused after halving', 'count', refusedAfterHalving));
      }
      const status = notes.length === 0 && median(errored) === 0 ? 'ok' : 'failed';
      return { id: spec.id, title: spec.title, status, notes: [...new Set(notes)], metrics, details: { rows: spec.rows, rpm: spec.rpm ?? 0, tpm: spec.tpm ?? 0, latencyMs: spec.latencyMs } };
    },
  };
}

async function resultRows(projectDir: string): Promise<Array<{ error?: string }>> {
  const runsDir = join(projectDir, '.agentmark', 'runs');
  const rows: Array<{ error?: string }> = [];
  for (const id of await readdir(runsDir).catch(() => [] as string[])) {
    const text = await readFile(join(runsDir, id, 'results.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) if (line.trim() !== '') rows.push(JSON.parse(line) as { error?: string });
  }
  return rows;
}

export const rateLimitedScenarios: Scenario[] = [
  limitScenario({ id: 'ratelimit-rpm', title: '15 rate limit (2k rows, 6,000 RPM, 20 ms, defaults)', rows: 2000, latencyMs: 20, rpm: 6000, idealMs: 20_000, wallRatio: 1.1, defaultRuns: 3 }),
  limitScenario({
    id: 'ratelimit-tpm',
    title: '16 token limit (10k rows × 300 tokens, 1M TPM, 20 ms)',
    rows: 10_000,
    latencyMs: 20,
    tpm: 1_000_000,
    tokensPerAnswer: 300,
    idealMs: 180_000,
    wallRatio: 1.15,
    // Three minutes a run: `--runs` asks for more.
    defaultRuns: 1,
  }),
  limitScenario({
    id: 'ratelimit-halved',
    title: '17 limit halved mid-run (1k rows, 6,000 → 3,000 RPM at 4 s)',
    rows: 1000,
    latencyMs: 20,
    rpm: 6000,
    halveAfterMs: 4000,
    idealMs: 16_000,
    wallRatio: 1.1,
    defaultRuns: 3,
  }),
];

/** This build against another one on the unlimited 10k-row run, interleaved in pairs. */
export const unlimitedAbScenario: Scenario = {
  id: 'unlimited-ab',
  title: '18 no limit, this build vs BENCH_OTHER_BIN (10k rows, 0 ms, c=50)',
  defaultRuns: 7,
  async run(context, runs) {
    const notes: string[] = [];
    const other = process.env.BENCH_OTHER_BIN;
    if (other === undefined) {
      const result: ScenarioResult = { id: 'unlimited-ab', title: this.title, status: 'failed', notes: ['set BENCH_OTHER_BIN to the other build\'s dist/bundle/agentmark.cjs'], metrics: [], details: {} };
      return result;
    }
    const rows = 10_000;
    const project = await createBenchProject(rows);
    const once = async (bin: string) => {
      await project.clearRuns();
      context.server.latencyMs = 0;
      context.server.reset();
      const args = [bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--concurrency', '50', '--no-cache'];
      const run = await measureNode(args, { cwd: project.dir, env: cliEnv(context.server), timeoutMs: 300_000 });
      if (run.code !== 0) notes.push(`${bin}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
      if (context.server.requests !== rows) notes.push(`${bin}: server saw ${context.server.requests} requests, expected ${rows}`);
      return run;
    };
    try {
      await once(other);
      await once(context.bin);
      const mine: number[] = [];
      const theirs: number[] = [];
      const ratios: number[] = [];
      const mineCpu: number[] = [];
      const theirsCpu: number[] = [];
      const cpuRatios: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        // Alternating which goes first, so a drift in load favours neither.
        let a: Awaited<ReturnType<typeof once>>;
        let b: Awaited<ReturnType<typeof once>>;
        if (i % 2 === 0) {
          b = await once(other);
          a = await once(context.bin);
        } else {
          a = await once(context.bin);
          b = await once(other);
        }
        mine.push(a.wallMs);
        theirs.push(b.wallMs);
        ratios.push(a.wallMs / b.wallMs);
        if (a.cpuMs !== undefined && b.cpuMs !== undefined) {
          mineCpu.push(a.cpuMs);
          theirsCpu.push(b.cpuMs);
          cpuRatios.push(a.cpuMs / b.cpuMs);
        }
        context.log(`  pair ${i + 1}/${runs}: ${a.wallMs.toFixed(0)} ms (CPU ${a.cpuMs?.toFixed(0) ?? '?'} ms) this build, ${b.wallMs.toFixed(0)} ms (CPU ${b.cpuMs?.toFixed(0) ?? '?'} ms) the other`);
      }
      const ideal = median(theirs);
      return {
        id: 'unlimited-ab',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('wall, this build', 'ms', mine, { ideal, idealText: 'the other build', target: { value: ideal * 1.05, source: 'issue 38', text: '≤ 1.05× the other build' } }),
          metric('wall, the other build', 'ms', theirs),
          ...(mineCpu.length > 0 ? [metric('CPU, this build', 'ms', mineCpu, { ideal: median(theirsCpu), idealText: 'the other build' }), metric('CPU, the other build', 'ms', theirsCpu)] : []),
        ],
        details: { rows, pairedRatioMedian: Math.round(median(ratios) * 1000) / 1000, ...(cpuRatios.length > 0 ? { pairedCpuRatioMedian: Math.round(median(cpuRatios) * 1000) / 1000 } : {}) },
      };
    } finally {
      await project.cleanup();
    }
  },
};
