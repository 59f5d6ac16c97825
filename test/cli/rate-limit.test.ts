import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject;
let server: OpenAIServer;
afterEach(async () => {
  await project.cleanup();
  await server.close();
});

const words = (n: number): string =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n') + '\n';

const modelCalls = (s: OpenAIServer) => s.requests.filter((r) => r.path.startsWith('/v1/chat'));

describe('run-experiment under a provider rate limit', () => {
  it('paces to the limit the headers state: every row succeeds, no retry is spent on a 429', async () => {
    // 1,200 requests a minute, a quarter of a second of it at once (5): the first 20 in flight
    // meet the limit before any header has been read.
    server = await startOpenAIServer({ rateLimit: { rpm: 1200, burstSeconds: 0.25 } });
    project = await cliProject({ 'datasets/words.jsonl': words(40) });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--format', 'json', '--max-retries', '0', '--quiet'], { server });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { summary: { rows: number; errored: number; rateLimit?: { refused: number; waitedMs: number } }; rows: Array<{ retries: number; error?: string }> };
    expect(report.summary).toMatchObject({ rows: 40, errored: 0 });
    expect(report.rows.map((row) => row.retries)).toEqual(Array(40).fill(0));
    const refused = server.refused;
    // At most the first window in flight (20) less the burst (5), and then once more for each of them.
    expect(refused).toBeLessThanOrEqual(20);
    expect(modelCalls(server)).toHaveLength(40 + refused);
    expect(report.summary.rateLimit?.refused).toBe(refused);
  });
});
