import type { ChildProcess } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { echoText, startAnthropicServer, wantsJson, type AnthropicServer } from '../helpers/anthropic-server.js';
import { cliProject, type CliProject } from './cli-project.js';

/** Per CLI process: this machine runs many test files at once, and a CLI start then takes seconds. */
const SLOW = 60_000;
const PROMPT =
  '---\nname: claude\ntext_config:\n  model_name: anthropic/claude-haiku-4-5\n  temperature: 0\n  max_tokens: 50\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n---\n\n<System>Repeat the word.</System>\n\n<User>{props.word}</User>\n';

let server: AnthropicServer;
beforeAll(async () => {
  server = await startAnthropicServer();
});
afterAll(() => server.close());

let project: CliProject;
beforeEach(async () => {
  project = await cliProject({ 'prompts/claude.prompt.mdx': PROMPT });
  // The real @ai-sdk/anthropic (a devDependency), installed in the project as a user would.
  const folder = join(project.dir, 'node_modules', '@ai-sdk', 'anthropic');
  await mkdir(dirname(folder), { recursive: true });
  await symlink(resolve('node_modules/@ai-sdk/anthropic'), folder, 'dir');
  server.requests.length = 0;
  server.batches.length = 0;
  server.hold = false;
  server.setResponder(echoText);
});
afterEach(() => project.cleanup());

const env = (): NodeJS.ProcessEnv => ({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' });
const run = (args: string[]) => project.run(args, { env: env(), timeoutMs: SLOW });
const creates = (): number => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches').length;
const polls = (): number => server.requests.filter((r) => r.method === 'GET' && /^\/v1\/messages\/batches\/msgbatch_\d+$/.test(r.path)).length;
const liveCalls = (): number => server.requests.filter((r) => r.path === '/v1/messages').length;
const byOutput = (rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> => [...rows].sort((a, b) => String(a.output).localeCompare(String(b.output)));

describe('run-experiment --batch with an anthropic/… model (CLI)', () => {
  it('sends the very bodies a live run posts as one message batch, and records the same rows', { timeout: 120_000 }, async () => {
    const live = await run(['run-experiment', 'prompts/claude.prompt.mdx', '--no-cache', '--quiet', '--format', 'jsonl']);
    expect(live.code, live.stderr).toBe(1);
    const liveBodies = server.requests.filter((r) => r.path === '/v1/messages').map((r) => r.body);
    expect(liveBodies).toHaveLength(3);
    server.requests.length = 0;

    const batch = await run(['run-experiment', 'prompts/claude.prompt.mdx', '--batch', '--batch-poll', '0.01', '--no-cache', '--format', 'jsonl']);
    // gamma's expected output is GAMMA: the gate fails as it does live.
    expect(batch.code, batch.stderr).toBe(1);
    expect(batch.stderr.split('\n').filter((line) => line.startsWith('batch:'))).toEqual([
      'batch: 1 batch job: not created 1 (0/3 done)',
      'batch: 1 batch job: in_progress 1 (0/3 done)',
      'batch: 1 batch job: completed 1 (3/3 done)',
    ]);
    expect(liveCalls()).toBe(0);
    expect(creates()).toBe(1);
    const [created] = server.batches;
    const sent = [...(created?.requests ?? [])].sort((a, b) => a.custom_id.localeCompare(b.custom_id));
    expect(sent.map((request) => request.custom_id)).toEqual(['row-0-0', 'row-1-0', 'row-2-0']);
    // The batch params are the live request bodies, byte for byte once parsed.
    expect(sent.map((request) => request.params)).toEqual(liveBodies);
    expect(server.requests.find((r) => r.path === '/v1/messages/batches')?.headers['x-api-key']).toBe('test-key');

    const [liveRun, batchRun] = await project.runIds();
    const liveRows = byOutput(await project.results(liveRun ?? ''));
    const batchRows = byOutput(await project.results(batchRun ?? ''));
    expect(batchRows.map((row) => [row.output, row.batch, (row.evals as Record<string, { passed: boolean }>).exact?.passed])).toEqual([
      ['alpha', true, true],
      ['beta', true, true],
      ['gamma', true, false],
    ]);
    expect(batchRows.map((row) => row.usage)).toEqual(liveRows.map((row) => row.usage));
    const manifest = JSON.parse(await project.read(`.agentmark/runs/${batchRun ?? ''}/manifest.json`)) as { batch: Record<string, unknown> };
    expect(manifest.batch).toMatchObject({ api: 'anthropic', endpoint: '/v1/messages', baseURL: server.url, jobs: [{ part: 0, endpoint: '/v1/messages', requests: 3, batchId: 'msgbatch_1', status: 'completed', downloaded: true }] });
  });

  it('kill -9 while polling, then --resume: the same message batch is collected, never created again', { timeout: 150_000 }, async () => {
    server.hold = true;
    let resolveChild: (child: ChildProcess) => void = () => {};
    const child = new Promise<ChildProcess>((resolve) => (resolveChild = resolve));
    const first = project.run(['run-experiment', 'prompts/claude.prompt.mdx', '--batch', '--batch-poll', '0.01', '--quiet'], { env: env(), onSpawn: resolveChild, timeoutMs: SLOW });
    await expect.poll(polls, { timeout: 40_000, interval: 10 }).toBeGreaterThanOrEqual(3);
    (await child).kill('SIGKILL');
    expect((await first).signal).toBe('SIGKILL');
    expect(creates()).toBe(1);
    const [id] = await project.runIds();
    expect(await project.results(id ?? '')).toEqual([]);
    server.hold = false;
    const resumed = await run(['run-experiment', 'prompts/claude.prompt.mdx', '--resume', id ?? '', '--quiet', '--format', 'jsonl']);
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(creates()).toBe(1);
    expect(liveCalls()).toBe(0);
    expect((await project.results(id ?? '')).map((row) => row.output).sort()).toEqual(['alpha', 'beta', 'gamma']);
    const listed = await run(['batches', 'status', id ?? '']);
    expect(listed.stdout).toContain('0     model  msgbatch_1  -           completed  3/3         0');
  });

  it('with an LLM-judge eval on an anthropic/… judge: a judge batch after the model batch, with the live judge bodies', { timeout: 150_000 }, async () => {
    const json = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
    json.scores.polite = { type: 'boolean', description: 'The answer is polite', scorer: 'llm_judge' };
    await project.write('agentmark.json', JSON.stringify(json));
    await project.write('prompts/claude.prompt.mdx', PROMPT.replace('evals: [exact]', 'evals: [polite]'));
    // The judge (the only caller asking for structured output) finds every answer polite but beta's.
    server.setResponder((params) => (wantsJson(params) ? { json: { reasoning: 'read it', passed: !JSON.stringify(params.messages).includes('beta') } } : echoText(params)));
    const judgeArgs = ['--judge-model', 'anthropic/claude-haiku-4-5', '--no-cache', '--quiet', '--format', 'jsonl'];
    const live = await run(['run-experiment', 'prompts/claude.prompt.mdx', ...judgeArgs]);
    expect(live.code, live.stderr).toBe(1);
    const liveJudge = server.requests.filter((r) => r.path === '/v1/messages' && wantsJson(r.body));
    expect(liveJudge).toHaveLength(3);
    server.requests.length = 0;

    const batch = await run(['run-experiment', 'prompts/claude.prompt.mdx', '--batch', '--batch-poll', '0.01', ...judgeArgs]);
    expect(batch.code, batch.stderr).toBe(1);
    expect(liveCalls()).toBe(0);
    expect(creates()).toBe(2);
    const judgeBatch = server.batches[1];
    const byText = (params: Record<string, unknown>): string => JSON.stringify(params.messages);
    expect((judgeBatch?.requests ?? []).map((request) => request.params).sort((a, b) => byText(a).localeCompare(byText(b)))).toEqual(
      liveJudge.map((r) => r.body).sort((a, b) => byText(a).localeCompare(byText(b))),
    );
    const judgeCreate = server.requests.filter((r) => r.path === '/v1/messages/batches')[1];
    // The same beta features as live (@ai-sdk/anthropic 3.0.140 asks for none with native structured output on this model).
    expect(judgeCreate?.headers['anthropic-beta']).toBe(liveJudge[0]?.headers['anthropic-beta']);
    const [, batchRun] = await project.runIds();
    const rows = await project.results(batchRun ?? '');
    expect(rows.map((row) => [row.output, (row.evals as Record<string, { passed?: boolean }>).polite?.passed]).sort()).toEqual([
      ['alpha', true],
      ['beta', false],
      ['gamma', true],
    ]);
  });

  it('refuses with exit 2 before any request: an OpenAI judge for an Anthropic batch, and no Anthropic key', { timeout: 90_000 }, async () => {
    const json = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
    json.scores.polite = { type: 'boolean', description: 'The answer is polite', scorer: 'llm_judge' };
    await project.write('agentmark.json', JSON.stringify(json));
    await project.write('prompts/judged.prompt.mdx', PROMPT.replace('evals: [exact]', 'evals: [polite]'));
    const judged = await run(['run-experiment', 'prompts/judged.prompt.mdx', '--batch']);
    expect(judged.code).toBe(2);
    expect(judged.stderr).toContain(
      `error: --batch sends the judge calls of eval polite as batch jobs too, but its judge model openai/gpt-4o-mini is served by the "openai" provider, not Anthropic's Message Batches API`,
    );
    const keyless = await project.run(['run-experiment', 'prompts/claude.prompt.mdx', '--batch'], { env: { ANTHROPIC_BASE_URL: server.url }, timeoutMs: SLOW });
    expect({ code: keyless.code, stderr: keyless.stderr }).toEqual({
      code: 2,
      stderr: 'error: no Anthropic API key for the batch jobs of anthropic/claude-haiku-4-5\n  hint: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another server than api.anthropic.com)\n',
    });
    expect(await project.runIds()).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
