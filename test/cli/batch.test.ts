import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const server = useOpenAIServer();
/** Per CLI process: this machine runs many test files at once, and a CLI start then takes seconds. */
const SLOW = 60_000;
let project: CliProject;
beforeEach(async () => {
  project = await cliProject();
});
afterEach(() => project.cleanup());

const creates = (): number => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches').length;
const polls = (): number => server.requests.filter((r) => r.method === 'GET' && /^\/v1\/batches\/batch_/.test(r.path)).length;
const liveCalls = (): number => server.requests.filter((r) => r.path === '/v1/chat/completions').length;

function spawn(args: string[]): { done: ReturnType<CliProject['run']>; child: Promise<ChildProcess> } {
  let resolveChild: (child: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((resolve) => (resolveChild = resolve));
  return { done: project.run(args, { server, onSpawn: resolveChild, timeoutMs: SLOW }), child };
}

describe('run-experiment --batch (CLI)', () => {
  it('runs the rows as a batch job, shows the jobs while polling, and reports as a live run would', { timeout: 90_000 }, async () => {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--batch', '--batch-poll', '0.01', '--format', 'jsonl'], { server, timeoutMs: SLOW });
    // gamma's expected output is GAMMA: the gate fails as it would live.
    expect(result.code).toBe(1);
    // Each change of state, as it is seen; then the usual progress of the rows.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('batch:'))).toEqual([
      'batch: 1 batch job: not uploaded 1 (0/3 done)',
      'batch: 1 batch job: validating 1 (0/3 done)',
      'batch: 1 batch job: in_progress 1 (0/3 done)',
      'batch: 1 batch job: completed 1 (3/3 done)',
    ]);
    const rows = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    rows.sort((a, b) => Number(a.index) - Number(b.index));
    expect(rows.map((row) => [row.output, (row.evals as Record<string, { passed: boolean }>).exact?.passed])).toEqual([
      ['alpha', true],
      ['beta', true],
      ['gamma', false],
    ]);
    expect(liveCalls()).toBe(0);
  });

  it('kill -9 while polling, then --resume: the same job is collected, never submitted again', { timeout: 120_000 }, async () => {
    server.batches.hold = true;
    const first = spawn(['run-experiment', 'prompts/echo.prompt.mdx', '--batch', '--batch-poll', '0.01', '--quiet']);
    await expect.poll(polls, { timeout: 40_000, interval: 10 }).toBeGreaterThanOrEqual(3);
    (await first.child).kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(creates()).toBe(1);
    const [id] = await project.runIds();
    expect(await project.results(id ?? '')).toEqual([]);
    server.batches.hold = false;
    // The run was a batch run: --resume goes on with its jobs without --batch being repeated.
    const resumed = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--resume', id ?? '', '--quiet', '--format', 'jsonl'], { server, timeoutMs: SLOW });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(/^warning: took over run /);
    expect(creates()).toBe(1);
    expect(server.requests.filter((r) => r.path === '/v1/files').length).toBe(1);
    expect(liveCalls()).toBe(0);
    const rows = await project.results(id ?? '');
    expect(rows.map((row) => row.output).sort()).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('with an LLM-judge eval: judge jobs after the model job, shown while polling; kill -9 in the judge poll, then --resume collects the same judge job', { timeout: 150_000 }, async () => {
    const json = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
    json.scores.polite = { type: 'boolean', description: 'The answer is polite', scorer: 'llm_judge' };
    await project.write('agentmark.json', JSON.stringify(json));
    await project.write(
      'prompts/judged.prompt.mdx',
      '---\nname: judged\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [polite]\n---\n\n<User>{props.word}</User>\n',
    );
    // The judge (the only caller asking for structured output) finds every answer polite but beta's.
    server.setHandler((request) => (request.schema === undefined ? echoResponder(request) : { object: { reasoning: 'read it', passed: !request.messagesText.includes('beta') } }));
    server.batches.holdFrom = 1;
    const judgePolls = (): number => server.requests.filter((r) => r.method === 'GET' && r.path === '/v1/batches/batch_2').length;
    const first = spawn(['run-experiment', 'prompts/judged.prompt.mdx', '--batch', '--batch-poll', '0.01']);
    await expect.poll(judgePolls, { timeout: 40_000, interval: 10 }).toBeGreaterThanOrEqual(3);
    (await first.child).kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stderr.split('\n').filter((line) => line.startsWith('batch:'))).toEqual([
      'batch: 1 batch job: not uploaded 1 (0/3 done)',
      'batch: 1 batch job: validating 1 (0/3 done)',
      'batch: 1 batch job: in_progress 1 (0/3 done)',
      'batch: 1 batch job: completed 1 (3/3 done)',
      'batch: 1 batch job: completed 1 (3/3 done); 1 judge batch job: not uploaded 1 (0/3 done)',
      'batch: 1 judge batch job: validating 1 (0/3 done)',
      'batch: 1 judge batch job: in_progress 1 (0/3 done)',
    ]);
    expect(creates()).toBe(2);
    const [id] = await project.runIds();
    // Rows waiting for their judge are not recorded: nothing half-scored is in the results.
    expect(await project.results(id ?? '')).toEqual([]);
    server.batches.holdFrom = Infinity;
    const resumed = await project.run(['run-experiment', 'prompts/judged.prompt.mdx', '--resume', id ?? '', '--quiet', '--format', 'jsonl'], { server, timeoutMs: SLOW });
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(creates()).toBe(2);
    expect(server.requests.filter((r) => r.path === '/v1/files').length).toBe(2);
    expect(liveCalls()).toBe(0);
    const rows = await project.results(id ?? '');
    const verdicts = rows.map((row) => [row.output, (row.evals as Record<string, { passed?: boolean }>).polite?.passed]);
    expect(verdicts.sort()).toEqual([
      ['alpha', true],
      ['beta', false],
      ['gamma', true],
    ]);
    const listed = await project.run(['batches', 'list', id ?? ''], { server, timeoutMs: SLOW });
    expect(listed.stdout).toContain('1     judge  batch_2  file-3      completed  3/3         0');
  });

  it('Ctrl-C while polling leaves the job running and says how to resume or cancel; batches shows and cancels it', { timeout: 180_000 }, async () => {
    server.batches.hold = true;
    const first = spawn(['run-experiment', 'prompts/echo.prompt.mdx', '--batch', '--batch-poll', '0.01', '--quiet']);
    await expect.poll(polls, { timeout: 40_000, interval: 10 }).toBeGreaterThanOrEqual(2);
    (await first.child).kill('SIGINT');
    const stopped = await first.done;
    const [id] = await project.runIds();
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toBe(
      `warning: the batch jobs keep running on the server: continue with --resume ${id} (it picks up the same jobs, never submits them again), or cancel them with \`agentmark batches cancel ${id}\`\n` +
        `interrupted: finished rows are saved; continue with: agentmark run-experiment --resume ${id} --batch --batch-poll 0.01 --quiet\n`,
    );
    const listed = await project.run(['batches', 'list', id ?? ''], { server, timeoutMs: SLOW });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      [
        `run ${id}: 1 batch job: in_progress 1 (0/3 done)`,
        `${server.url} /v1/chat/completions`,
        '',
        'part  kind   batch    input file  status       done/total  failed',
        '0     model  batch_1  file-1      in_progress  0/3         0',
        '',
      ].join('\n'),
    );
    const cancelled = await project.run(['batches', 'cancel', id ?? ''], { server, timeoutMs: SLOW });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(
      [
        `run ${id}: 1 batch job: cancelling 1 (0/3 done)`,
        `${server.url} /v1/chat/completions`,
        '',
        'part  kind   batch    input file  status      done/total  failed',
        '0     model  batch_1  file-1      cancelling  0/3         0',
        '',
        `cancel requested; answers already made stay in the output files: --resume ${id} collects them`,
        '',
      ].join('\n'),
    );
    const status = await project.run(['batches', 'status', id ?? '', '--json'], { server, timeoutMs: SLOW });
    expect(JSON.parse(status.stdout).jobs[0]).toMatchObject({ batchId: 'batch_1', status: 'cancelled', counts: { total: 3, completed: 0, failed: 3 } });
    const resumed = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--resume', id ?? '', '--quiet', '--format', 'jsonl'], { server, timeoutMs: SLOW });
    expect(resumed.code).toBe(1);
    const rows = await project.results(id ?? '');
    expect(rows.map((row) => row.errorCode)).toEqual(['MODEL_BATCH_CANCELLED', 'MODEL_BATCH_CANCELLED', 'MODEL_BATCH_CANCELLED']);
    expect(creates()).toBe(1);
  });

  it('refuses what it cannot batch with exit 2 and a hint, before any request', { timeout: 120_000 }, async () => {
    const json = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
    // A judge model the Batch API cannot run: its calls could not go in a judge job.
    json.scores.polite = { type: 'boolean', description: 'The answer is polite', scorer: 'llm_judge', options: { model: 'anthropic/claude-3-5-haiku' } };
    await project.write('agentmark.json', JSON.stringify(json));
    await project.write(
      'prompts/judged.prompt.mdx',
      '---\nname: judged\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [polite]\n---\n\n<User>{props.word}</User>\n',
    );
    const judged = await project.run(['run-experiment', 'prompts/judged.prompt.mdx', '--batch'], { server, timeoutMs: SLOW });
    expect(judged.code).toBe(2);
    expect(judged.stderr).toContain('--batch sends the judge calls of eval polite as batch jobs too, but its judge model anthropic/claude-3-5-haiku is served by the "anthropic" provider');
    expect(judged.stderr).toContain('hint: add --judge-live');
    const flag = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--judge-live'], { server, timeoutMs: SLOW });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--judge-live applies to --batch');
    const cacheOnly = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--batch', '--cache-only'], { server, timeoutMs: SLOW });
    expect(cacheOnly.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
