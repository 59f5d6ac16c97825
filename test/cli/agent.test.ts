import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { spanTree } from '../otel/otel-tree.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { cliProject, type CliProject } from './cli-project.js';

/** Two model calls and one tool per row: the model asks for `lookup`, then answers with its result. */
const agentConfig = `import { generateText, jsonSchema, stepCountIs, tool } from 'ai';

export default {
  tools: {
    lookup: tool({
      description: 'Looks a word up',
      inputSchema: jsonSchema({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }),
      execute: async ({ word }: { word: string }) => ({ word }),
    }),
  },
  agents: {
    helper: (ctx: any) =>
      generateText({ model: ctx.model, ...ctx.prompt.render(ctx.props), tools: ctx.tools, stopWhen: stepCountIs(2), abortSignal: ctx.signal }),
  },
};
`;
const agentPrompt =
  '---\nname: helper\ntext_config:\n  model_name: openai/gpt-4o-mini\n  tools: [lookup]\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  agent: helper\n  evals: [exact, tools]\n---\n\n<User>{props.word}</User>\n';

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

/** A run's rows in dataset order (results.jsonl holds them as they finished). */
async function results(runId: string): Promise<Array<Record<string, unknown>>> {
  return (await project.results(runId)).sort((a, b) => (a.index as number) - (b.index as number));
}

async function agentProject(): Promise<CliProject> {
  const made = await cliProject({ 'agentmark.config.ts': agentConfig, 'prompts/helper.prompt.mdx': agentPrompt });
  const config = JSON.parse(await made.read('agentmark.json')) as { scores: Record<string, unknown> };
  config.scores.tools = { type: 'boolean', scorer: 'tool_calls', options: { expected: ['lookup'] } };
  await made.write('agentmark.json', JSON.stringify(config));
  // the config imports `ai`, as a user's project would have it installed
  await symlink(join(REPO_ROOT, 'node_modules'), join(made.dir, 'node_modules'), 'dir');
  server.setHandler((request) =>
    request.tools.length === 0
      ? { text: request.lastUserText }
      : request.toolResults.length === 0
      ? { toolCalls: [{ name: 'lookup', args: { word: request.lastUserText } }], usage: { input: 7, output: 3 } }
      : { text: (JSON.parse(request.toolResults[0]?.output ?? '{}') as { word: string }).word, usage: { input: 11, output: 2 } },
  );
  return made;
}

describe('run-experiment with a config agent', () => {
  it('records 2 model calls and the summed tokens per row, tool_calls passes, and --cache-only replays it with no request', async () => {
    project = await agentProject();
    const live = await project.run(['run-experiment', 'prompts/helper.prompt.mdx', '--format', 'json', '-q'], { server });
    expect(live.stderr).toBe('');
    // gamma's expected_output is GAMMA: exact fails on it, the run exits 1 like the prompt's own run
    expect(live.code).toBe(1);
    expect(server.requests).toHaveLength(6);
    const [liveId] = await project.runIds();
    const rows = await results(liveId as string);
    expect(rows.map((row) => [row.output, (row.agent as { modelCalls: number }).modelCalls, row.usage])).toEqual([
      ['alpha', 2, { inputTokens: 18, outputTokens: 5, totalTokens: 23 }],
      ['beta', 2, { inputTokens: 18, outputTokens: 5, totalTokens: 23 }],
      ['gamma', 2, { inputTokens: 18, outputTokens: 5, totalTokens: 23 }],
    ]);
    expect(rows.map((row) => (row.evals as Record<string, { passed: boolean }>).tools?.passed)).toEqual([true, true, true]);

    // No key, no server: every answer comes from the cache.
    const replayed = await project.run(['run-experiment', 'prompts/helper.prompt.mdx', '--format', 'json', '-q', '--cache-only']);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(1);
    expect(server.requests).toHaveLength(6);
    const [, replayId] = await project.runIds();
    const again = await results(replayId as string);
    expect(again.map((row) => [row.output, row.toolCalls, row.evals, row.cached])).toEqual(rows.map((row) => [row.output, row.toolCalls, row.evals, true]));
    const summaryOf = (stdout: string) => (JSON.parse(stdout) as { summary: { evals: unknown } }).summary.evals;
    expect(summaryOf(replayed.stdout)).toEqual(summaryOf(live.stdout));

    // `--agent` is kept in the manifest: a rerun of a run made with it runs the agent again.
    const flagged = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'helper', '-q'], { server });
    expect(flagged.stderr).toBe('');
    const rerun = await project.run(['rerun', 'latest', '--cache-only', '-q']);
    expect(rerun.stderr).toBe('');
    const [, , flaggedId, rerunId] = await project.runIds();
    expect((await results(rerunId as string)).map((row) => [row.output, (row.agent as { name: string }).name, row.cached])).toEqual(
      (await results(flaggedId as string)).map((row) => [row.output, 'helper', true]),
    );
  });

  it('compare works between a prompt-only run and an agent run of the same dataset', async () => {
    project = await agentProject();
    const promptOnly = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-q'], { server });
    expect(promptOnly.code).toBe(1);
    const agent = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'helper', '-q'], { server });
    expect(agent.stderr).toBe('');
    expect(agent.code).toBe(1);
    const [first, second] = await project.runIds();
    const compared = await project.run(['compare', first as string, second as string, '--format', 'json']);
    expect(compared.stderr).toBe('');
    expect(compared.code).toBe(0);
    const report = JSON.parse(compared.stdout) as { changedRows: unknown; gate: { failed: boolean }; differences: unknown[] };
    // Same prompt, model and dataset: what differs is the agent.
    expect(report.differences).toEqual([{ field: 'agent', base: 'none (the prompt alone)', head: 'helper' }]);
    // The agent answered every row as the prompt did: nothing changed.
    expect(report.changedRows).toMatchObject({ regressed: 0, improved: 0, rows: [] });
    expect(report.gate.failed).toBe(false);
    const manifest = (id: string) => project.read(`.agentmark/runs/${id}/manifest.json`).then((text) => (JSON.parse(text) as { options: Record<string, unknown> }).options);
    expect((await manifest(first as string)).agent).toBeUndefined();
    expect((await manifest(second as string)).agent).toBe('helper');
  });

  it('an agent name the config does not define is exit 2 with the closest name', async () => {
    project = await agentProject();
    const result = await project.run(['run-experiment', 'prompts/helper.prompt.mdx', '--agent', 'helpr'], { server });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'error: unknown agent "helpr" (defined: helper)\n  hint: did you mean "helper"?\n' });
    expect(server.requests).toHaveLength(0);
  });

  it('validate reports a test_settings.agent the config does not define at its line:col, with the closest name', async () => {
    project = await agentProject();
    await project.write('prompts/helper.prompt.mdx', agentPrompt.replace('agent: helper', 'agent: helpr'));
    const result = await project.run(['validate']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('prompts/helper.prompt.mdx:8:3: unknown agent "helpr" (defined: helper)\n  hint: did you mean "helper"?\n');
  });

  it('exports an agent row as invoke_agent with one chat span per live model call and its tool call (--otel)', async () => {
    project = await agentProject();
    const receiver = await startOtlpReceiver();
    try {
      const result = await project.run(['run-experiment', 'prompts/helper.prompt.mdx', '--rows', '0', '--otel', '-q', '-o', '/dev/null'], {
        server,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(spanTree(receiver.spans)).toBe(
        ['agentmark.run', '  agentmark.row #0.0 gen_ai.evaluation.result(exact) gen_ai.evaluation.result(tools)', '    invoke_agent helper', '      chat gpt-4o-mini', '      chat gpt-4o-mini', '      execute_tool lookup'].join('\n'),
      );
      const agent = receiver.spans.find((span) => span.name === 'invoke_agent helper');
      expect(agent?.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper', 'agentmark.agent.model_calls': 2, 'gen_ai.usage.input_tokens': 18 });
      const calls = receiver.spans.filter((span) => span.name === 'chat gpt-4o-mini').map((span) => Number(span.attributes['gen_ai.usage.input_tokens']));
      expect(calls.sort((a, b) => a - b)).toEqual([7, 11]);
    } finally {
      await receiver.close();
    }
  });
});
