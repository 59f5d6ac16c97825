/**
 * Scenario 4b: a million rows. The same run as scale (scenario 4) at ten times its size: a
 * 1,000,000-line JSONL dataset, 0 ms model, `--concurrency 100 --no-cache`, with the bare loop
 * interleaved as its ideal. It holds the CLI to issue 30's targets: peak RSS ≤ 250 MB (flat: the
 * 100k run's figure, when scale ran in the same bench, is in `details`) and a wall ≤ 2.5× the
 * bare loop's. One measured run by default (each takes minutes); `--runs` sets more.
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
  bareRatioTarget: { ratio: 2.5, source: 'issue 30' },
  rssAgainst: 'scale',
  timeoutMs: 60 * 60_000,
  // A warm-up would double minutes of work for a file cache the dataset's writing just warmed.
  warmUp: false,
  bareLoop: true,
};
