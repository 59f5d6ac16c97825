import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROWS = 200_000;
const ID = '20261130-000000.000-aaaaaa';

/**
 * A finished run of ROWS rows, its results in a slightly shuffled finish order, with the
 * manifest's integrity record (so the reader's check runs as on a real run).
 */
async function writeRun(root: string): Promise<void> {
  const dir = join(root, '.agentmark', 'runs', ID);
  await mkdir(dir, { recursive: true });
  const hash = createHash('sha256');
  const out = createWriteStream(join(dir, 'results.jsonl'));
  for (let i = 0; i < ROWS; i += 1) {
    const index = i % 2 === 0 ? i + 1 : i - 1;
    const passed = index % 5 !== 3;
    const line = `${JSON.stringify({
      index, line: index + 1, repeat: 0, input: { q: `question ${index}` }, expectedOutput: `answer ${index}`, metadata: {},
      output: passed ? `answer ${index}` : 'no', toolCalls: [], evals: { exact: { score: passed ? 1 : 0, passed, normalized: passed ? 1 : 0 } },
      latencyMs: 100, usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 }, cached: false, retries: 0,
    })}\n`;
    hash.update(line);
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({
    id: ID, prompt: { path: 'prompts/p.prompt.mdx', hash: 'h', name: 'p' }, dataset: { path: 'datasets/d.jsonl', hash: 'd' },
    model: 'openai/gpt-4o-mini', settings: {}, options: { repeat: 1 }, startedAt: '2026-11-30T00:00:00.000Z', endedAt: '2026-11-30T00:10:00.000Z', status: 'completed',
    summary: {
      rows: ROWS, errored: 0, cached: 0, pregenerated: 0, evals: [{ name: 'exact', count: ROWS, errored: 0, verdictCount: ROWS, passedCount: ROWS * 0.8 }],
      latencyMs: { p50: 100, p95: 100 }, usage: { inputTokens: 4 * ROWS, outputTokens: 2 * ROWS, totalTokens: 6 * ROWS }, flaky: [], gates: [], passed: true,
    },
    integrity: { rows: ROWS, sha256: hash.digest('hex') },
  }));
}

/**
 * `runs show --format json` streams: the 200,000 rows parsed take ~150 MB of heap, and the CLI
 * runs with V8's old space capped at 40 MB, so a report that held its rows (or its text) would
 * die of heap exhaustion. No time is measured (the bench's `runs-show-1m` does that).
 */
it('writes the json report of a 200,000-row run with the heap capped at 40 MB', async () => {
  const root = await mkdtemp(join(tmpdir(), 'agentmark-test-'));
  try {
    await writeFile(join(root, 'agentmark.json'), JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: {} }));
    await writeRun(root);
    const result = await runCli(['runs', 'show', ID, '--format', 'json', '--output', 'report.json'], { cwd: root, nodeArgs: ['--max-old-space-size=40'], timeoutMs: 170_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(await readFile(join(root, 'report.json'), 'utf8')) as { rows: Array<{ index: number; output: unknown }> };
    expect(report.rows).toHaveLength(ROWS);
    expect(report.rows.every((row, i) => row.index === i && row.output === (i % 5 === 3 ? 'no' : `answer ${i}`))).toBe(true);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}, 180_000);
