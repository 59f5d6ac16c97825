import type { RowResult } from '../../src/experiment/types.js';
import { RunAccumulator } from '../../src/experiment/run-summary.js';
import { RunStore, type RunHandle } from '../../src/store/index.js';

export interface SyntheticRun {
  id: string;
  promptPath?: string;
  promptName?: string;
  evalNames: string[];
  rows: Iterable<RowResult>;
  /** The manifest's options (a run's `scoreRanges`, ...). */
  options?: Record<string, unknown>;
  /** Leave the run "running", with no summary, and return its open handle. */
  keepOpen?: boolean;
}

/** A row as the runner stores it, with the given evals' verdicts. */
export function row(index: number, fields: Partial<RowResult> = {}): RowResult {
  return {
    index,
    line: index + 1,
    repeat: 0,
    input: { question: `question ${index}` },
    expectedOutput: `answer ${index}`,
    metadata: {},
    output: `answer ${index}`,
    toolCalls: [],
    evals: {},
    latencyMs: 10 + (index % 50),
    cached: false,
    retries: 0,
    ...fields,
  };
}

/**
 * Writes a run folder through the real store (RunStore / RunHandle, as the runner does) and
 * its summary through the runner's own accumulator, so the viewer reads exactly what a run
 * leaves, without running a model.
 */
export async function writeRun(projectRoot: string, run: SyntheticRun): Promise<RunHandle> {
  const store = new RunStore(projectRoot);
  const handle = await store.create({
    id: run.id,
    prompt: { path: run.promptPath ?? 'prompts/synthetic.prompt.mdx', hash: '0'.repeat(64), name: run.promptName ?? 'synthetic' },
    model: 'openai/gpt-4o-mini',
    settings: { temperature: 0 },
    options: run.options ?? {},
    startedAt: '2026-11-30T10:00:00.000Z',
    status: 'running',
  });
  // The run's repeat count, from the rows when they are an array (a generator's rows are single).
  const repeat = Array.isArray(run.rows) ? run.rows.reduce((most: number, r: RowResult) => Math.max(most, (r.repeat ?? 0) + 1), 1) : 1;
  const accumulator = new RunAccumulator(run.evalNames, repeat);
  for (const r of run.rows) {
    handle.append(r);
    accumulator.add(r);
  }
  if (run.keepOpen) return handle;
  await handle.updateManifest({
    status: 'completed',
    endedAt: '2026-11-30T10:00:05.000Z',
    summary: accumulator.finish({ evalNames: run.evalNames }),
    integrity: handle.integrity(),
  });
  await handle.close();
  return handle;
}
