import { afterEach, describe, expect, it } from 'vitest';
import { echoResponder, startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
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
    // Some of the first 20, sent before any header was read, met the limit (14 in a run seen)...
    expect(refused).toBeGreaterThan(0);
    // ...at most the first window in flight, and then once more each at the most.
    expect(refused).toBeLessThanOrEqual(20);
    expect(modelCalls(server)).toHaveLength(40 + refused);
    expect(report.summary.rateLimit?.refused).toBe(refused);
  });

  it('insufficient_quota stops the run at once with exit 2, and --resume finishes the rest', async () => {
    server = await startOpenAIServer();
    project = await cliProject({ 'datasets/words.jsonl': words(6) });
    let calls = 0;
    server.setHandler((request) => {
      calls += 1;
      // The third call finds the account out of credit: a 429 with no reset coming.
      if (calls === 3) server.setRateLimit({ quotaExceeded: true });
      return echoResponder(request);
    });
    const first = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--concurrency', '1', '--quiet'], { server });
    expect(first.code).toBe(2);
    const [id] = await project.runIds();
    expect(first.stderr).toContain('the provider says the account is out of quota');
    expect(first.stderr).toContain('HTTP 429 quota exceeded: You exceeded your current quota');
    expect(first.stderr).toContain('4 rows not run');
    expect(first.stderr).toContain(`--resume ${id}`);
    // Refused once, not retried: a quota is not a rate that a wait cures.
    expect(modelCalls(server)).toHaveLength(3);
    expect((await project.results(id ?? 'none')).map((row) => row.input)).toEqual([{ word: 'w0' }, { word: 'w1' }]);

    server.setRateLimit(undefined);
    const resumed = await project.run(['run-experiment', '--resume', id ?? 'none', '--quiet', '--format', 'json'], { server });
    expect(resumed.code).toBe(0);
    const rows = await project.results(id ?? 'none');
    expect(rows.map((row) => (row.input as { word: string }).word).sort()).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5']);
    expect(rows.every((row) => row.error === undefined)).toBe(true);
  });

  it('two experiments and their judge share one limiter for the key and model', async () => {
    server = await startOpenAIServer({ rateLimit: { rpm: 1200, burstSeconds: 0.25 } });
    const prompt = (name: string): string =>
      `---\nname: ${name}\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact, polite]\n---\n\n<User>{props.word}</User>\n`;
    project = await cliProject({ 'datasets/words.jsonl': words(10), 'prompts/one.prompt.mdx': prompt('one'), 'prompts/two.prompt.mdx': prompt('two') });
    const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
    await project.write('agentmark.json', JSON.stringify({ ...json, scores: { exact: { type: 'boolean', scorer: 'exact_match' }, polite: { type: 'boolean', scorer: 'llm_judge', description: 'Is it polite?' } } }));
    server.setHandler((request) => (request.schema === undefined ? echoResponder(request) : { object: { reasoning: 'fine', passed: true } }));
    const result = await project.run(
      // --no-cache: the two prompts render the same requests, which the second would find cached.
      ['run-experiment', 'prompts/one.prompt.mdx', 'prompts/two.prompt.mdx', '--judge-model', 'openai/gpt-4o-mini', '--no-cache', '--max-retries', '0', '--quiet', '--format', 'json'],
      { server },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const reports = JSON.parse(result.stdout) as Array<{ summary: { rows: number; errored: number; rateLimit?: { refused: number } }; rows: Array<{ retries: number }> }>;
    expect(reports.map((report) => [report.summary.rows, report.summary.errored])).toEqual([
      [10, 0],
      [10, 0],
    ]);
    expect(reports.flatMap((report) => report.rows.map((row) => row.retries))).toEqual(Array(20).fill(0));
    // 40 answers: a model call and a judge call per row of each. Only the first requests, sent
    // before any header was read, can meet the limit in a body (20 in flight less the 5 the
    // bucket holds); a limiter of their own for the second run or for the judges would start
    // that burst again, and pace their sum at twice the limit.
    const refused = server.refused;
    expect(refused).toBeLessThanOrEqual(15);
    expect(modelCalls(server)).toHaveLength(40 + refused);
    expect(reports.reduce((sum, report) => sum + (report.summary.rateLimit?.refused ?? 0), 0)).toBe(refused);
  });

  it("--rpm 60 sends one request a second, as the server's clock sees them arrive", async () => {
    server = await startOpenAIServer();
    project = await cliProject({ 'datasets/words.jsonl': words(5) });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--rpm', '60', '--format', 'jsonl'], { server });
    expect(result.code).toBe(0);
    const arrivals = modelCalls(server).map((request) => request.receivedAt);
    expect(arrivals).toHaveLength(5);
    // From the second request on: the first is let through at once, but its provider's first
    // call builds the request for a while before it goes out, so its arrival is late by that.
    const gaps = arrivals.slice(2).map((at, i) => at - (arrivals[i + 1] ?? 0));
    // The limiter lets a request go up to 10 ms before its slot at this pace (a late timer must
    // not lose it), and the slots stay one second apart; the rest is the way to the server.
    // Loose bounds, for a loaded machine (the precise pace is the bench's): unpaced, these
    // requests would arrive within milliseconds of each other. At a load of 22 a request's way
    // took more than 300 ms once (a gap under 700 ms): half a second of slack.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(500);
    expect((arrivals[4] ?? 0) - (arrivals[1] ?? 0)).toBeGreaterThanOrEqual(2500);
    expect(result.stderr).toContain('paced: 1 req/s by --rpm');
  });

  it("the config's rateLimit caps its provider, and the progress line names it", async () => {
    server = await startOpenAIServer();
    project = await cliProject({
      'datasets/words.jsonl': words(3),
      'agentmark.config.ts': 'export default { rateLimit: { openai: { rpm: 60 } } };\n',
    });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--format', 'jsonl'], { server });
    expect(result.code).toBe(0);
    const arrivals = modelCalls(server).map((request) => request.receivedAt);
    expect(arrivals).toHaveLength(3);
    // A second apart at the client, less what a loaded machine adds to one request's way (unpaced: milliseconds).
    expect((arrivals[2] ?? 0) - (arrivals[1] ?? 0)).toBeGreaterThanOrEqual(500);
    expect(result.stderr).toContain('paced: 1 req/s by rateLimit.openai in the config');
  });

  it('a row errors for the rate limit only once one request has waited past --timeout in all', async () => {
    server = await startOpenAIServer();
    project = await cliProject({ 'datasets/words.jsonl': words(1) });
    server.setHandler(() => ({ status: 429, retryAfterMs: 150, message: 'Rate limit reached for requests' }));
    // 1.5 s, not 0.5 s: on a loaded machine the first 429 and its 150 ms wait took the whole half second (one request).
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--timeout', '1.5', '--max-retries', '0', '--quiet', '--format', 'jsonl'], { server });
    expect(result.code).toBe(1);
    const [row] = JSON.parse(`[${result.stdout.trim().split('\n').join(',')}]`) as Array<{ errorCode?: string; error?: string; retries: number }>;
    expect(row).toMatchObject({ errorCode: 'MODEL_RATE_LIMITED', retries: 0 });
    // Past the deadline either at a 429 (the provider's message) or while waiting for its retry-after.
    expect(row?.error).toMatch(/^openai\/gpt-4o-mini: (HTTP 429 rate limited: Rate limit reached for requests|rate limited: waited \d+(\.\d)?s for the rate limit \(\d+ requests? refused with 429\), past --timeout)/);
    // With --max-retries 0 a 429 that counted as a failure would have been the only request.
    expect(modelCalls(server).length).toBeGreaterThan(1);
  });
});
