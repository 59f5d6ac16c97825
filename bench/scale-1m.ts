/**
 * Scenario 4b: a million rows. The same run as scale (scenario 4) at ten times its size: a
 * 1,000,000-line JSONL dataset, 0 ms model, `--concurrency 100 --no-cache`, with the bare loop
 * interleaved as its ideal, and the AI SDK's floor (bench/sdk-floor.mjs) beside it. It holds the
 * CLI to issue 38's targets: a wall ≤ 1.3× the floor's at peak RSS ≤ 250 MB (flat: the 100k
 * run's figure, when scale ran in the same bench, is in `details`); the bare loop's ratio is a
 * figure (issue 30's ≤ 2.5× was replaced by issue 38's floor). One measured run by default (each
 * takes minutes); `--runs` sets more, and `BENCH_FLOOR_RUNS` caps the floor's runs beside them.
 */
import type { ExperimentSpec } from './scenarios.js';

export const scale1mSpec: ExperimentSpec = {
  id: 'scale1m',
  title: '4b scale (1M rows, 0 ms, c=100)',
  rows: 1_000_000,
  latencyMs: 0,
  concurrency: 100,
  cached: false,
  rssTarget: { value: 250, source: 'issue 30', text: '< 250 MB' },
  bareTargetText: "figure; issue 38's target is the AI SDK floor row",
  sdkFloor: { ratio: 1.3 },
  rssAgainst: 'scale',
  timeoutMs: 60 * 60_000,
  // A warm-up would double minutes of work for a file cache the dataset's writing just warmed.
  warmUp: false,
  bareLoop: true,
};
