/**
 * Generated finished runs for the bench scenarios that read runs (compare, merge, runs show):
 * results files written as a stream in a slightly shuffled finish order, with the manifest's
 * integrity record (row count and sha256 of the lines) so every reader's check runs as it does
 * on a real run. Rows are ~450 bytes with two evals: a verdict (`exact`) and a 1–5 score
 * (`quality`). Deterministic: the same arguments write the same bytes every bench.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const labels = ['refund', 'shipping', 'account', 'product_question', 'other'];

/** A tiny deterministic PRNG. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** Dataset row `index` as a RowResult with the given outcome (same content in every run). */
export function resultRow(index: number, passed: boolean, score: number): Record<string, unknown> {
  const expected = labels[index % labels.length] as string;
  return {
    index,
    line: index + 1,
    repeat: 0,
    input: { message: `Customer message number ${index}: where is my order, it has not arrived yet`, labels },
    expectedOutput: expected,
    metadata: {},
    output: passed ? expected : 'other',
    toolCalls: [],
    evals: {
      exact: { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0, reason: passed ? 'equal' : 'not equal' },
      quality: { score, normalized: (score - 1) / 4 },
    },
    latencyMs: 100 + (index % 50),
    usage: { inputTokens: 40, outputTokens: 2, totalTokens: 42 },
    cached: false,
    retries: 0,
  };
}

/** A results file written line by line, with backpressure, hashing its lines as the store does. */
export class ResultsWriter {
  readonly #out: WriteStream;
  readonly #hash = createHash('sha256');
  rows = 0;

  constructor(path: string) {
    this.#out = createWriteStream(path);
  }

  async write(row: Record<string, unknown>): Promise<void> {
    const line = `${JSON.stringify(row)}\n`;
    this.#hash.update(line);
    this.rows += 1;
    if (!this.#out.write(line)) await new Promise<void>((resolve) => this.#out.once('drain', () => resolve()));
  }

  /** Closes the file; returns the manifest's integrity record. */
  async end(): Promise<{ rows: number; sha256: string }> {
    await new Promise<void>((resolve) => this.#out.end(() => resolve()));
    return { rows: this.rows, sha256: this.#hash.digest('hex') };
  }
}

/** Dataset order with about 30% of neighbours swapped: the finish order of a pool. */
export function finishOrder(rows: number, next: () => number): Uint32Array {
  const order = new Uint32Array(rows);
  for (let i = 0; i < rows; i += 1) order[i] = i;
  for (let i = 0; i < rows - 1; i += 1) {
    if (next() < 0.3) {
      const t = order[i] as number;
      order[i] = order[i + 1] as number;
      order[i + 1] = t;
    }
  }
  return order;
}

export interface ManifestParts {
  id: string;
  rows: number;
  integrity: { rows: number; sha256: string };
  promptHash?: string;
  shard?: { index: number; count: number };
}

/** A finished run's manifest (what `runs show`, `compare` and `merge` read). */
export async function writeManifest(dir: string, parts: ManifestParts): Promise<void> {
  const { id, rows } = parts;
  const summary = {
    rows, errored: 0, cached: 0, pregenerated: 0,
    evals: [{ name: 'exact', count: rows, errored: 0, verdictCount: rows, passedCount: 0 }, { name: 'quality', count: rows, errored: 0, verdictCount: 0, passedCount: 0 }],
    latencyMs: { p50: 120, p95: 130 }, usage: { inputTokens: 40 * rows, outputTokens: 2 * rows, totalTokens: 42 * rows }, flaky: [], gates: [], passed: true,
  };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({
    id, prompt: { path: 'prompts/p.prompt.mdx', hash: parts.promptHash ?? 'h', name: 'p' }, dataset: { path: 'datasets/d.jsonl', hash: 'd' },
    model: 'openai/gpt-4o-mini', settings: {}, options: { repeat: 1, ...(parts.shard ? { selection: { kind: 'all' } } : {}) },
    startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:10:00.000Z', status: 'completed', summary,
    integrity: parts.integrity,
    ...(parts.shard ? { shard: { ...parts.shard, evals: ['exact', 'quality'] } } : {}),
  }, null, 2));
}

/**
 * A finished run of `rows` rows in `<root>/.agentmark/runs/<id>`: results in finish order, a
 * share `passChance` of `exact` passing (varied by `seed`), scores 1–5.
 */
export async function writeRun(root: string, id: string, rows: number, seed: number, passChance: number): Promise<string> {
  const dir = join(root, '.agentmark', 'runs', id);
  await mkdir(dir, { recursive: true });
  const next = random(seed);
  const order = finishOrder(rows, next);
  const out = new ResultsWriter(join(dir, 'results.jsonl'));
  for (const index of order) {
    const rowRandom = random(index * 7919 + 1);
    const passed = (rowRandom() + next() * 0.2) < passChance;
    const score = Math.min(5, 1 + Math.floor(rowRandom() * 4 + next()));
    await out.write(resultRow(index, passed, score));
  }
  await writeManifest(dir, { id, rows, integrity: await out.end(), promptHash: `h${seed}` });
  return dir;
}

/** The project file a generated project needs. */
export async function writeProjectFile(root: string): Promise<void> {
  await writeFile(join(root, 'agentmark.json'), JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: {} }));
}
