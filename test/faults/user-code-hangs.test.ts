/**
 * User code that never settles, or ends the process itself, never passes for a green run: the
 * stuck row is recorded as timed out, the run ends with a report, a non-zero exit and a
 * finished manifest; a process that ends with work still pending never exits 0.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { REPO_ROOT } from '../helpers/temp-project.js';

/** Row `beta` of the echo fixture awaits a promise nobody settles, holding no timer; the others answer. */
const stuckAgent = `export default {
  agents: {
    stuck: (ctx: any) => (ctx.props.word === 'beta' ? new Promise(() => {}) : ctx.props.word),
    quits: (ctx: any) => {
      if (ctx.props.word === 'beta') process.exit(0);
      return ctx.props.word;
    },
  },
};
`;

/** A custom provider whose call for row \`beta\` awaits a promise nobody settles and ignores its abort signal. */
const stuckProvider = `export default {
  providers: {
    custom: (modelId: string) => ({
      specificationVersion: 'v3',
      provider: 'custom',
      modelId,
      supportedUrls: {},
      doGenerate: async (options: any) => {
        if (JSON.stringify(options.prompt).includes('beta')) await new Promise(() => {});
        const text = JSON.stringify(options.prompt).match(/(alpha|gamma)/)?.[1] ?? '';
        return { content: [{ type: 'text', text }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, warnings: [] };
      },
      doStream: async () => {
        throw new Error('not used');
      },
    }),
  },
};
`;

const agentPrompt = (agent: string): string =>
  `---\nname: ${agent}\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  agent: ${agent}\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n`;

/** A prompt's tool (run by generateText, no agent) that never settles. */
const stuckTool = `import { jsonSchema, tool } from 'ai';
export default {
  tools: {
    lookup: tool({ description: 'Looks a word up', inputSchema: jsonSchema({ type: 'object', properties: { word: { type: 'string' } } }), execute: () => new Promise(() => {}) }),
  },
};
`;
const toolPrompt =
  '---\nname: tooly\ntext_config:\n  model_name: openai/gpt-4o-mini\n  tools: [lookup]\n  max_calls: 2\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

interface Outcome {
  code: number | null;
  stderr: string;
  report: { summary: { rows: number; errored: number; passed: boolean } } | undefined;
  status: unknown;
  rows: Array<Record<string, unknown>>;
}

async function runOf(args: string[]): Promise<Outcome> {
  const made = project as CliProject;
  const result = await made.run(args);
  const [runId] = await made.runIds();
  const manifest = JSON.parse(await made.read(`.agentmark/runs/${runId}/manifest.json`)) as { status: unknown };
  const rows = (await made.results(runId as string)).sort((a, b) => (a.index as number) - (b.index as number));
  const report = result.stdout === '' ? undefined : (JSON.parse(result.stdout) as Outcome['report']);
  return { code: result.code, stderr: result.stderr, report, status: manifest.status, rows };
}

describe('user code that never settles', () => {
  it('an agent awaiting a promise nobody settles: the row is timed out with the agent named, every row recorded, a report, exit 1, the manifest completed', async () => {
    project = await cliProject({ 'agentmark.config.ts': stuckAgent, 'prompts/stuck.prompt.mdx': agentPrompt('stuck') });
    const run = await runOf(['run-experiment', 'prompts/stuck.prompt.mdx', '--timeout', '1', '--format', 'json', '-q']);
    expect(run.code).toBe(1);
    expect(run.status).toBe('completed');
    expect(run.rows.map((row) => [row.index, row.output ?? null, row.error ?? null, row.errorCode ?? null, row.timedOut ?? null])).toEqual([
      [0, 'alpha', null, null, null],
      [1, null, 'agent "stuck" timed out after 1s', 'AGENT_TIMEOUT', true],
      [2, 'gamma', null, null, null],
    ]);
    expect(run.report?.summary).toMatchObject({ rows: 3, errored: 1, passed: false });
    expect(run.stderr).toContain('warning: agent "stuck" ignored its signal: row 1 was abandoned at its timeout of 1s, still running');
  });

  it('a custom provider whose call never settles and ignores its signal: the row times out, every row recorded, exit 1, the manifest completed', async () => {
    project = await cliProject({ 'agentmark.config.ts': stuckProvider });
    const run = await runOf(['run-experiment', 'prompts/echo.prompt.mdx', '--model', 'custom/m', '--timeout', '1', '--max-retries', '0', '--format', 'json', '-q']);
    expect(run.code).toBe(1);
    expect(run.status).toBe('completed');
    expect(run.rows.map((row) => [row.index, row.output ?? null, row.errorCode ?? null, row.timedOut ?? null])).toEqual([
      [0, 'alpha', null, null],
      [1, null, 'MODEL_TIMEOUT', true],
      [2, 'gamma', null, null],
    ]);
    expect(run.report?.summary).toMatchObject({ rows: 3, errored: 1, passed: false });
  });

  it('process.exit(0) inside an agent is not a success: exit 2, said on stderr, the run left to --resume', async () => {
    project = await cliProject({ 'agentmark.config.ts': stuckAgent, 'prompts/quits.prompt.mdx': agentPrompt('quits') });
    const run = await runOf(['run-experiment', 'prompts/quits.prompt.mdx', '--concurrency', '1', '--format', 'json', '-q']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'error: process.exit(0) was called before the command finished (by user code: an agent, a provider, a tool, a hook or agentmark.config)\n' +
        '  hint: rows finished before it are kept; `--resume` runs the others\n',
    );
    expect(run.rows.map((row) => row.output)).toEqual(['alpha']);
    expect(run.status).toBe('running');
  });

  it('a process whose event loop runs dry with the command still pending (a prompt tool that never settles) exits 2, never 0', async () => {
    project = await cliProject({ 'agentmark.config.ts': stuckTool, 'prompts/tooly.prompt.mdx': toolPrompt });
    // the config imports \`ai\`, as a user's project would have it installed
    await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
    server.setHandler((request) => (request.toolResults.length === 0 ? { toolCalls: [{ name: 'lookup', args: { word: request.lastUserText } }] } : { text: 'done' }));
    const result = await project.run(['run-experiment', 'prompts/tooly.prompt.mdx', '--format', 'json', '-q'], { server });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: the command stopped with work still pending: a promise in user code (an agent, a provider, a tool or a hook) never settled and nothing was left to settle it\n' +
        '  hint: rows finished before it are kept; `--resume` runs the others\n',
    );
    expect(server.requests).toHaveLength(3);
  });
});
