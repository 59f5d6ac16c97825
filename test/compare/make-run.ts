import type { RowResult, RunSummary } from '../../src/experiment/types.js';
import type { ScoredEval } from '../../src/scoring/types.js';
import { RunStore, type RunManifest } from '../../src/store/index.js';

/** One dataset row of a synthetic run: its content and each eval's result (per repeat when an array). */
export interface RowSpec {
  input: Record<string, unknown>;
  expected?: unknown;
  output?: string;
  error?: string;
  evals: Record<string, ScoredEval | ScoredEval[]>;
}

export const pass = (reason?: string): ScoredEval => ({ passed: true, score: 1, normalized: 1, ...(reason ? { reason } : {}) });
export const fail = (reason?: string): ScoredEval => ({ passed: false, score: 0, normalized: 0, ...(reason ? { reason } : {}) });
export const score = (normalized: number): ScoredEval => ({ score: normalized * 10, normalized });

export interface RunSpec {
  id: string;
  rows: RowSpec[];
  evalNames: string[];
  prompt?: string;
  model?: string;
  status?: RunManifest['status'];
  commit?: string;
  startedAt?: string;
  /** Append rows in this order of dataset indexes (finish order), to exercise reading back in order. */
  order?: number[];
  /** @default { path: 'datasets/d.jsonl', hash: 'd-hash' } */
  dataset?: { path: string; hash: string };
}

/** Writes a run folder through the real store, as the runner would, and returns its id. */
export async function makeRun(root: string, spec: RunSpec): Promise<string> {
  const store = new RunStore(root);
  const repeat = Math.max(1, ...spec.rows.flatMap((r) => Object.values(r.evals).map((e) => (Array.isArray(e) ? e.length : 1))));
  const summary: RunSummary = {
    rows: spec.rows.length * repeat,
    errored: 0,
    cached: 0,
    pregenerated: 0,
    evals: spec.evalNames.map((name) => ({ name, count: 0, errored: 0, verdictCount: 0, passedCount: 0 })),
    latencyMs: { p50: 100, p95: 200 },
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    flaky: [],
    gates: [],
    passed: true,
  };
  const handle = await store.create({
    id: spec.id,
    prompt: { path: spec.prompt ?? 'prompts/p.prompt.mdx', hash: `${spec.prompt ?? 'p'}-hash`, name: 'p' },
    dataset: spec.dataset ?? { path: 'datasets/d.jsonl', hash: 'd-hash' },
    model: spec.model ?? 'openai/gpt-4o-mini',
    settings: { temperature: 0 },
    options: { repeat },
    ...(spec.commit ? { git: { commit: spec.commit, dirty: false } } : {}),
    startedAt: spec.startedAt ?? '2026-11-30T10:00:00.000Z',
    status: 'running',
  });
  const order = spec.order ?? spec.rows.map((_, i) => i);
  for (const index of order) {
    const row = spec.rows[index] as RowSpec;
    for (let r = 0; r < repeat; r++) {
      const evals: Record<string, ScoredEval> = {};
      for (const [name, value] of Object.entries(row.evals)) {
        const result = Array.isArray(value) ? value[r] : value;
        if (result) evals[name] = result;
      }
      const result: RowResult = {
        index,
        line: index + 1,
        repeat: r,
        input: row.input,
        ...(row.expected === undefined ? {} : { expectedOutput: row.expected }),
        metadata: {},
        ...(row.output === undefined ? {} : { output: row.output }),
        ...(row.error === undefined ? {} : { error: row.error }),
        toolCalls: [],
        evals,
        cached: false,
        retries: 0,
      };
      handle.append(result);
    }
  }
  await handle.updateManifest({ status: spec.status ?? 'completed', endedAt: '2026-11-30T10:00:01.000Z', summary });
  await handle.close();
  return spec.id;
}
