import type { RowResult, RunSummary } from '../../src/experiment/types.js';
import type { OutputStream, Reporter, RunInfo } from '../../src/report/index.js';

/** Collects everything written, like a stdout the test can read. */
export class MemoryStream implements OutputStream {
  text = '';
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export const info: RunInfo = {
  runId: '20261130-031500-ab12cd',
  runDir: '.agentmark/runs/20261130-031500-ab12cd',
  promptPath: 'prompts/math.prompt.mdx',
  promptName: 'math',
  model: 'openai/gpt-4o-mini',
  evalNames: ['exact', 'tone'],
  total: 4,
};

const base = { line: 1, metadata: {}, toolCalls: [], retries: 0 };

/** Two rows × two repeats: pass, fail, an eval error, a row error, a cached row. */
export const rows: RowResult[] = [
  {
    ...base,
    index: 1,
    line: 2,
    repeat: 0,
    input: { q: 'say "hi", then\nwave' },
    output: 'hi, <wave> & "bye"',
    evals: { exact: { score: 1, passed: true }, tone: { score: 0.9, label: 'friendly', reason: 'warm' } },
    latencyMs: 50,
    cached: true,
  },
  {
    ...base,
    index: 0,
    repeat: 1,
    input: { q: '2+2' },
    expectedOutput: '4',
    output: 'four',
    evals: { exact: { score: 0, passed: false, reason: 'mismatch' }, tone: { error: 'judge timed out' } },
    latencyMs: 340,
    usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
    costUsd: 0.0001,
    cached: false,
  },
  {
    ...base,
    index: 1,
    line: 2,
    repeat: 1,
    input: { q: 'say "hi", then\nwave' },
    evals: {},
    error: 'model call failed: 500',
    errorCode: 'MODEL_HTTP',
    cached: false,
  },
  {
    ...base,
    index: 0,
    repeat: 0,
    input: { q: '2+2' },
    expectedOutput: '4',
    output: '4',
    evals: { exact: { score: 1, passed: true, reason: 'match' }, tone: { score: 0.5, label: 'neutral' } },
    latencyMs: 120,
    usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
    costUsd: 0.0001,
    cached: false,
  },
];

export const summary: RunSummary = {
  rows: 4,
  errored: 1,
  cached: 1,
  pregenerated: 0,
  evals: [
    {
      name: 'exact',
      count: 3,
      errored: 0,
      verdictCount: 3,
      passedCount: 2,
      passRate: 2 / 3,
      passRateCi95: [0.208, 0.939],
      meanScore: 0.6667,
      meanScoreStdErr: 0.3333,
      meanScoreCi95: [0.0133, 1],
    },
    { name: 'tone', count: 3, errored: 1, verdictCount: 0, passedCount: 0, meanScore: 0.7, meanScoreStdErr: 0.2, meanScoreCi95: [0.308, 1] },
  ],
  latencyMs: { p50: 120, p95: 340, mean: 230 },
  usage: { inputTokens: 20, outputTokens: 3, totalTokens: 23 },
  costUsd: 0.0002,
  flaky: [{ index: 0, evals: ['exact'] }],
  gates: [
    { name: 'threshold', passed: false, message: '66.7% of verdicts passed, below 80%' },
    { name: 'errors', passed: false, message: '1 row errored' },
  ],
  passed: false,
};

/**
 * Every row in dataset order, a fresh pass per call: what the runner's `rows()` reads back
 * from the results file at the end.
 */
export function inOrder(list: readonly RowResult[]): () => AsyncIterable<RowResult> {
  const sorted = [...list].sort((a, b) => a.index - b.index || a.repeat - b.repeat);
  return async function* () {
    yield* sorted;
  };
}

/** Feeds rows in the given (finish) order, as the runner would, then ends the run. */
export async function play(reporter: Reporter, list: readonly RowResult[] = rows, runInfo: RunInfo = info): Promise<void> {
  await reporter.onRunStart?.(runInfo);
  for (const row of list) await reporter.onRowEnd?.(row);
  await reporter.onRunEnd?.(summary, runInfo, inOrder(list));
}
