import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoResponder, startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

let server: OpenAIServer;
let project: CliProject | undefined;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.setHandler(echoResponder);
  await project?.cleanup();
  project = undefined;
});

const agentmarkJson = JSON.stringify({
  version: '2.0.0',
  mdxVersion: '1.0',
  agentmarkPath: 'prompts',
  scores: { logged: { type: 'boolean', description: 'output equals the word' } },
});
const prompt =
  '---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [logged]\n---\n\n<User>{props.word}</User>\n';
const dataset = '{"input": {"word": "alpha"}}\n{"input": {"word": "beta"}}\n';

/** A config whose scorer and hooks append to hooks.log; `overrides` replaces hooks by name. */
const config = (overrides: Record<string, string> = {}): string => {
  const hooks: Record<string, string> = {
    beforeAll: '(run) => log(`beforeAll ${run.promptName}`)',
    setup: 'async (row, ctx) => { log(`setup ${row.input.word} ${typeof ctx.runId}`); return { opened: row.input.word }; }',
    teardown: '(context, result) => log(`teardown ${context?.opened} ${result.error ?? Object.values(result.evals).map((e) => e.passed).join()}`)',
    onFail: '(row, name, result) => log(`onFail ${row.input.word} ${name} ${result.passed ?? result.error}`)',
    afterAll: '(run, summary) => log(`afterAll ${summary.rows} ${summary.passed}`)',
    ...overrides,
  };
  return (
    "import { appendFileSync } from 'node:fs';\n" +
    "const log = (line: string) => appendFileSync('hooks.log', line + '\\n');\n" +
    'export default {\n' +
    "  scorers: { logged: ({ input, output }: any) => { log(`eval ${input.word}`); return { passed: output === input.word || input.word === 'alpha' }; } },\n" +
    `  hooks: {\n${Object.entries(hooks).map(([name, body]) => `    ${name}: ${body},`).join('\n')}\n  },\n};\n`
  );
};

async function run(overrides: Record<string, string> = {}, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string; log: string[] }> {
  project = await cliProject({ 'agentmark.json': agentmarkJson, 'prompts/echo.prompt.mdx': prompt, 'datasets/words.jsonl': dataset, 'agentmark.config.ts': config(overrides) });
  const dir = project.dir;
  // The model call is logged by the server, in the same file: the order is the order things happened.
  server.setHandler((request) => {
    appendFileSync(join(dir, 'hooks.log'), `call ${request.lastUserText}\n`);
    return { text: request.lastUserText === 'beta' ? 'BETA' : request.lastUserText };
  });
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--concurrency', '1', '--eval-timeout', '1', ...args], { server });
  const log = (await project.read('hooks.log').catch(() => '')).split('\n').filter((line) => line !== '');
  return { ...result, log };
}

// Several CLI runs per test: slow on a loaded machine.
describe('hooks in agentmark.config.ts', { timeout: 60_000 }, () => {
  it('run in order: beforeAll, then per row setup → call → evals → onFail → teardown, then afterAll', async () => {
    const result = await run();
    expect(result.log).toEqual([
      'beforeAll echo',
      'setup alpha string',
      'call alpha',
      'eval alpha',
      'teardown alpha true',
      'setup beta string',
      'call beta',
      'eval beta',
      'onFail beta logged false',
      'teardown beta false',
      'afterAll 2 false',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
  });

  it('a setup that throws makes its row an errored row without a call; teardown still runs; the run goes on', async () => {
    const result = await run({ setup: "(row) => { if (row.input.word === 'alpha') throw new Error('no database'); return { opened: row.input.word }; }" }, ['--format', 'json']);
    expect(result.log).toEqual(['beforeAll echo', 'teardown undefined setup hook: no database', 'call beta', 'eval beta', 'onFail beta logged false', 'teardown beta false', 'afterAll 2 false']);
    const rows = (JSON.parse(result.stdout) as { rows: Array<{ error?: string; errorCode?: string }> }).rows;
    expect(rows[0]).toMatchObject({ error: 'setup hook: no database', errorCode: 'HOOK_SETUP_FAILED' });
    expect(result.code).toBe(1);
  });

  it('a teardown or onFail that throws is recorded on the row and said on stderr; the verdict stands', async () => {
    const result = await run({ teardown: "async () => { throw new Error('disk full'); }", onFail: "() => { throw 'ticket system down'; }" }, ['--format', 'json']);
    const rows = (JSON.parse(result.stdout) as { rows: Array<{ hookErrors?: string[] }> }).rows;
    expect(rows.map((row) => row.hookErrors)).toEqual([['teardown hook: disk full'], ['onFail hook: ticket system down (eval logged)', 'teardown hook: disk full']]);
    expect(result.stderr).toBe(
      'warning: row 0: teardown hook: disk full\n' + 'warning: row 1: onFail hook: ticket system down (eval logged)\n' + 'warning: row 1: teardown hook: disk full\n',
    );
    expect(result.code).toBe(1);
  });

  it('a hook that hangs is cut off after --eval-timeout, like a scorer', async () => {
    const result = await run({ setup: "(row) => row.input.word === 'alpha' ? new Promise(() => {}) : { opened: 'beta' }" }, ['--format', 'json']);
    const rows = (JSON.parse(result.stdout) as { rows: Array<{ error?: string }> }).rows;
    expect(rows[0]?.error).toBe('setup hook: timed out after 1s');
    expect(result.log).toContain('teardown beta false');
  });

  it('beforeAll that throws fails the run with a hooks gate; afterAll that throws is a warning', async () => {
    const before = await run({ beforeAll: "() => { throw new Error('no fixtures'); }", onFail: '() => undefined' });
    expect(before.stdout).toContain('    ✘ hooks: beforeAll hook: no fixtures\n');
    expect(before.stderr).toBe('warning: beforeAll hook: no fixtures\n');
    expect(before.log).toContain('call alpha');
    expect(before.code).toBe(1);
    await project?.cleanup();
    const after = await run({ afterAll: "async () => { throw new Error('report upload failed'); }" });
    expect(after.stderr).toBe('warning: afterAll hook: report upload failed\n');
    expect(after.code).toBe(1);
  });

  // The process must end once the run is written, whatever a hook left open: in CI a server
  // left listening hung the job until its timeout. Tested by the process exiting at all.
  it('a beforeAll that leaves a server listening does not keep the process alive: exit with the run\'s code, a warning names the hook', async () => {
    const result = await run({
      beforeAll: "async () => { const { createServer } = await import('node:http'); await new Promise<void>((r) => createServer().listen(0, '127.0.0.1', () => r())); }",
    });
    expect(result.log).toContain('afterAll 2 false');
    expect(result.stderr).toBe('warning: the beforeAll hook left something open (TCPServerWrap); exiting anyway: close it in afterAll\n');
    expect(result.code).toBe(1);
  });

  it('a setup that starts an interval does not keep the process alive either; the warning names setup', async () => {
    const result = await run({ setup: '() => { setInterval(() => undefined, 1000); return { opened: 1 }; }' });
    expect(result.stderr).toBe('warning: the setup hook left something open (Timeout); exiting anyway: close it in teardown\n');
    expect(result.code).toBe(1);
  });

  it('a setup stuck in a synchronous endless loop is stopped after --eval-timeout plus a grace period: exit 2 naming the hook, the run marked failed', async () => {
    const result = await run({ setup: "(row) => { log(`looping ${row.input.word}`); for (;;) {} }" });
    expect(result.stderr).toBe(
      'error: setup hook did not return within 3s (--eval-timeout 1s plus 2s): stopped it; the run was stopped\n' +
        '  hint: look for an endless loop in the setup hook; rows finished before it are kept, `--resume` runs the others\n',
    );
    expect(result.code).toBe(2);
    expect(result.log).toEqual(['beforeAll echo', 'looping alpha', 'afterAll 0 false']);
    const [id = ''] = (await project?.runIds()) ?? [];
    expect(JSON.parse((await project?.read(`.agentmark/runs/${id}/manifest.json`)) ?? '{}')).toMatchObject({ status: 'failed' });
  });

  it('Ctrl-C stops a hook stuck in a synchronous loop: exit 130 naming the hook', async () => {
    project = await cliProject({
      'agentmark.json': agentmarkJson,
      'prompts/echo.prompt.mdx': prompt,
      'datasets/words.jsonl': dataset,
      'agentmark.config.ts': config({ beforeAll: "() => { log('looping'); for (;;) {} }" }),
    });
    const dir = project.dir;
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--eval-timeout', '600'], {
      server,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        void (async () => {
          // Once the hook is looping (it said so), interrupt it.
          while (!(await readFile(join(dir, 'hooks.log'), 'utf8').catch(() => '')).includes('looping')) await new Promise((r) => setTimeout(r, 20));
          child.kill('SIGINT');
        })();
      },
    });
    expect(result.stderr).toBe('error: beforeAll hook was interrupted (Ctrl-C) while it ran: stopped it; the run was stopped\n');
    expect(result.code).toBe(130);
  });

  it('an unknown hook name is a config error with a did-you-mean', async () => {
    const result = await run({ teardwn: '() => undefined' });
    expect(result.stderr).toMatch(/agentmark\.config\.ts: unknown hook "teardwn"\n {2}hint: did you mean "teardown"\?\n$/);
    expect(result.code).toBe(2);
  });
});
