import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowResult } from '../../src/experiment/types.js';
import type { RunManifest } from '../../src/store/index.js';

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-store-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** In the calling file or `describe`: a fresh temporary folder for each test, handed to `use`, removed after it. */
export function onTempDir(use: (dir: string) => void | Promise<void>): void {
  let cleanup: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const made = await tempDir();
    cleanup = made.cleanup;
    await use(made.dir);
  });
  afterEach(() => cleanup?.());
}

export function manifest(id: string, startedAt = '2026-11-30T03:15:00.000Z'): RunManifest {
  return {
    id,
    prompt: { path: 'prompts/math.prompt.mdx', hash: 'a'.repeat(64), name: 'math' },
    dataset: { path: 'datasets/math.jsonl', hash: 'b'.repeat(64) },
    model: 'openai/gpt-4o-mini',
    settings: { temperature: 0 },
    options: { concurrency: 4, repeat: 1, selection: { kind: 'all' }, cacheMode: 'use', threshold: 80 },
    startedAt,
    status: 'running',
  };
}

export function row(index: number, repeat = 0, extra: Partial<RowResult> = {}): RowResult {
  return {
    index,
    line: index + 1,
    repeat,
    input: { q: `question ${index}` },
    expectedOutput: 'yes',
    metadata: {},
    output: `answer ${index}`,
    toolCalls: [],
    evals: { exact: { score: 1, passed: true, normalized: 1 } },
    latencyMs: 100 + index,
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    cached: false,
    retries: 0,
    ...extra,
  };
}
