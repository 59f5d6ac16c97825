import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ATTR_GEN_AI_EVALUATION_NAME,
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL,
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  EVENT_GEN_AI_EVALUATION_RESULT,
} from '@opentelemetry/semantic-conventions/incubating';
import { echoResponder, useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { spanTree, withoutIds } from './otel-tree.js';

const config = `import { jsonSchema, tool } from 'ai';

export default {
  tools: {
    weather: tool({
      description: 'Weather by city',
      inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }: { city: string }) => ({ city, celsius: 4 }),
    }),
  },
};
`;
const prompt =
  '---\nname: words\ntext_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0.5\n  tools: [weather]\n  max_calls: 3\n' +
  'test_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [polite]\n  experiment_key: words-v1\n---\n\n<User>{props.word}</User>\n';
const rows = [
  { name: 'first', tags: ['smoke'], input: { word: 'alpha' }, expected_output: 'alpha' },
  { input: { word: 'weather' }, expected_output: 'It is 4 degrees.' },
  { input: { word: 'boom' } },
];
const scores = { polite: { type: 'boolean', scorer: 'llm_judge', description: 'Is the reply polite?' } };

const server = useOpenAIServer();
let project: CliProject;
let receiver: OtlpReceiver | undefined;

beforeEach(async () => {
  server.setHandler((request): OpenAIReply => {
    if (request.schema !== undefined) return echoResponder(request) as OpenAIReply;
    if (request.lastUserText === 'boom') return { status: 400, message: 'bad request' };
    if (request.lastUserText === 'weather' && request.toolResults.length === 0) return { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] };
    if (request.lastUserText === 'weather') return { text: 'It is 4 degrees.' };
    return echoResponder(request) as OpenAIReply;
  });
  project = await cliProject({
    'agentmark.config.ts': config,
    'prompts/words.prompt.mdx': prompt,
    'datasets/words.jsonl': rows.map((row) => JSON.stringify(row)).join('\n') + '\n',
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
  await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await project.cleanup();
});

// One row at a time: repeat 1 of a row then always finds repeat 0's judge answer in the cache.
const args = ['run-experiment', 'prompts/words.prompt.mdx', '--repeat', '2', '--concurrency', '1', '--judge-model', 'openai/gpt-4o', '--format', 'json', '--quiet'];
const otelEnv = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({ OTEL_EXPORTER_OTLP_ENDPOINT: url, ...extra });

/** Row 0 answered from the cache: a first run of it alone records its answers. */
async function warmCache(): Promise<void> {
  const first = await project.run([...args, '--rows', '0'], { server });
  expect(first.code).toBe(0);
}

/** The report without what changes from run to run. */
const results = (stdout: string): unknown => {
  const report = JSON.parse(stdout) as { rows: Array<Record<string, unknown>>; summary: { passed: boolean; rows: number; errored: number; cached: number } };
  return {
    summary: { passed: report.summary.passed, rows: report.summary.rows, errored: report.summary.errored, cached: report.summary.cached },
    rows: report.rows.map((row) => [row.index, row.repeat, row.output, row.error, row.cached, row.evals]),
  };
};

const byName = (spans: ReceivedSpan[], name: string): ReceivedSpan[] => spans.filter((span) => span.name === name);

describe("the config's otel: { … }", () => {
  it('exports every run without --otel, to the endpoint it names; enabled: false keeps it off', async () => {
    receiver = await startOtlpReceiver();
    const withOtel = (otel: string) => config.replace('export default {', `export default {\n  otel: ${otel},`);
    await project.write('agentmark.config.ts', withOtel(`{ endpoint: ${JSON.stringify(receiver.url)}, protocol: 'http/json', timeoutSeconds: 3 }`));
    const result = await project.run([...args, '--rows', '0'], { server });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(spanTree(receiver.spans).split('\n')[0]).toBe('agentmark.run');
    expect(byName(receiver.spans, 'agentmark.row')).toHaveLength(2);
    const delivered = receiver.spans.length;
    await project.write('agentmark.config.ts', withOtel(`{ enabled: false, endpoint: ${JSON.stringify(receiver.url)} }`));
    expect((await project.run([...args, '--rows', '0'], { server })).code).toBe(0);
    expect(receiver.spans).toHaveLength(delivered);
  });
});

describe('--otel', () => {
  it('delivers one trace: the run, a span per row × repeat, a gen_ai span per live call, its tool calls, judge calls, and an evaluation event per eval result', async () => {
    await warmCache();
    receiver = await startOtlpReceiver();
    const result = await project.run([...args, '--otel'], { server, env: otelEnv(receiver.url) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const spans = receiver.spans;
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(spanTree(spans)).toBe(
      [
        'agentmark.run',
        '  agentmark.row #0.0 [cached] gen_ai.evaluation.result(polite)',
        '    chat gpt-4o [cached,judge]',
        '  agentmark.row #0.1 [cached] gen_ai.evaluation.result(polite)',
        '    chat gpt-4o [cached,judge]',
        '  agentmark.row #1.0 gen_ai.evaluation.result(polite)',
        '    chat gpt-4o [judge]',
        '    chat gpt-4o-mini',
        '      execute_tool weather',
        '  agentmark.row #1.1 gen_ai.evaluation.result(polite)',
        '    chat gpt-4o [cached,judge]',
        '    chat gpt-4o-mini',
        '      execute_tool weather',
        '  agentmark.row #2.0 [error]',
        '    chat gpt-4o-mini [error]',
        '  agentmark.row #2.1 [error]',
        '    chat gpt-4o-mini [error]',
      ].join('\n'),
    );

    const [root] = byName(spans, 'agentmark.run');
    const runId = (await project.runIds())[1];
    expect(root?.attributes).toMatchObject({
      'agentmark.run.id': runId,
      'agentmark.prompt.path': 'prompts/words.prompt.mdx',
      'agentmark.prompt.name': 'words',
      'agentmark.model': 'openai/gpt-4o-mini',
      'agentmark.dataset.path': 'datasets/words.jsonl',
      'agentmark.experiment_key': 'words-v1',
      'agentmark.repeat': 2,
      'agentmark.gate.passed': false,
      'agentmark.run.status': 'completed',
      'langfuse.experiment.id': runId,
      'openinference.span.kind': 'CHAIN',
    });
    expect(root?.resource['service.name']).toBe('agentmark');

    const port = Number(new URL(server.url).port);
    const calls = byName(spans, 'chat gpt-4o-mini');
    for (const call of calls) {
      expect(call.kind).toBe(3);
      expect(call.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: 'chat',
        [ATTR_GEN_AI_PROVIDER_NAME]: 'openai',
        [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o-mini',
        [ATTR_GEN_AI_REQUEST_TEMPERATURE]: 0.5,
        [ATTR_SERVER_ADDRESS]: '127.0.0.1',
        [ATTR_SERVER_PORT]: port,
      });
    }
    const answered = calls.filter((call) => call.status.code !== 2);
    for (const call of answered) {
      expect(call.attributes[ATTR_GEN_AI_RESPONSE_ID]).toMatch(/^chatcmpl-/);
      expect(call.attributes[ATTR_GEN_AI_RESPONSE_MODEL]).toBe('gpt-4o-mini');
      expect(call.attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS]).toEqual(['stop']);
      expect(call.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]).toBeTypeOf('number');
      expect(call.attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]).toBeTypeOf('number');
    }
    for (const failed of calls.filter((call) => call.status.code === 2)) expect(failed.attributes['error.type']).toMatch(/^MODEL_/);
    expect(byName(spans, 'execute_tool weather').map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual(['weather', 'weather']);

    const rowSpans = byName(spans, 'agentmark.row');
    const first = rowSpans.find((span) => span.attributes['agentmark.row.index'] === 0);
    expect(first?.attributes).toMatchObject({ 'agentmark.row.name': 'first', 'agentmark.row.tags': ['smoke'], 'agentmark.cached': true, 'langfuse.experiment.item.metadata.name': 'first' });
    expect(first?.endMs).toBe(first?.startMs);
    expect(first?.attributes['langfuse.experiment.item.id']).toBe(first?.attributes['agentmark.row.id']);
    const event = rowSpans.find((span) => span.attributes['agentmark.row.index'] === 1)?.events[0];
    expect(event?.name).toBe(EVENT_GEN_AI_EVALUATION_RESULT);
    expect(event?.attributes).toMatchObject({ [ATTR_GEN_AI_EVALUATION_NAME]: 'polite', 'agentmark.evaluation.schema': 'polite' });
    const rowCall = calls.find((call) => call.parentSpanId === rowSpans.find((span) => span.attributes['agentmark.row.index'] === 1)?.spanId);
    expect(event?.attributes[ATTR_GEN_AI_RESPONSE_ID]).toBe(rowCall?.attributes[ATTR_GEN_AI_RESPONSE_ID]);
    expect([0, 1]).toContain(event?.attributes[ATTR_GEN_AI_EVALUATION_SCORE_VALUE]);
    expect(['pass', 'fail']).toContain(event?.attributes[ATTR_GEN_AI_EVALUATION_SCORE_LABEL]);
    // No content without --otel-content (test/otel/content.test.ts checks every byte sent).
    const content = ['langfuse.observation.input', 'langfuse.observation.output', 'langfuse.experiment.item.expected_output', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    expect(spans.flatMap((span) => Object.keys(span.attributes).filter((key) => content.includes(key)))).toEqual([]);
  });

  it('http/json works too, and a secret in OTEL_EXPORTER_OTLP_HEADERS reaches the collector but no output or file', async () => {
    receiver = await startOtlpReceiver();
    const secret = 'sk-otel-secret-123';
    const result = await project.run([...args, '--otel'], {
      server,
      env: otelEnv(receiver.url, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${secret}` }),
    });
    expect(result.code).toBe(1);
    expect(receiver.requests.every((request) => request.contentType.includes('application/json'))).toBe(true);
    expect(receiver.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(byName(receiver.spans, 'agentmark.row')).toHaveLength(6);
    expect(result.stdout + result.stderr).not.toContain(secret);
    const runId = (await project.runIds())[0] as string;
    expect(await project.read(`.agentmark/runs/${runId}/manifest.json`)).not.toContain(secret);
  });

  it.each([
    ['answering 503', 'unavailable'],
    ['never answering', 'hang'],
    ['refusing connections', 'closed'],
  ] as const)('a collector %s changes neither the results nor the exit code; one warning line counts the spans not exported', async (_label, mode) => {
    // --no-cache: both runs call the model for every row, so their results can be compared.
    const healthy = await project.run([...args, '--no-cache'], { server });
    receiver = await startOtlpReceiver(mode === 'closed' ? 'ok' : mode);
    const url = receiver.url;
    if (mode === 'closed') await receiver.close();
    const secret = 'sk-never-shown';
    const result = await project.run([...args, '--no-cache', '--otel', '--otel-timeout', '1'], { server, env: otelEnv(url, { OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${secret}` }) });
    expect(result.code).toBe(healthy.code);
    expect(results(result.stdout)).toEqual(results(healthy.stdout));
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^warning: otel: 19 of 19 spans not exported to ${url.replace(/[.]/g, '\\.')}/v1/traces \\((\\d+ failed exports?; last: .+|no answer within 1 s)\\)$`));
    expect(result.stderr).not.toContain(secret);
  });

  it('`runs export <run> --otel` sends a stored run as the same tree, with its original times', async () => {
    await warmCache();
    receiver = await startOtlpReceiver();
    const live = await project.run([...args, '--otel'], { server, env: otelEnv(receiver.url) });
    expect(live.code).toBe(1);
    const liveSpans = [...receiver.spans];
    receiver.spans.length = 0;
    // server.address comes from the OpenAI base URL of the environment (the run does not store it).
    const exported = await project.run(['runs', 'export', 'latest', '--otel'], { server, env: otelEnv(receiver.url) });
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^exported run \S+: 17 spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\n$/);
    expect(receiver.spans[0]?.traceId).not.toBe(liveSpans[0]?.traceId);
    expect(withoutIds(receiver.spans)).toEqual(withoutIds(liveSpans));
  });
  it('rerun --otel and score --otel export their runs too (score: pre-generated outputs, no chat span)', async () => {
    receiver = await startOtlpReceiver();
    expect((await project.run(args, { server })).code).toBe(1);
    const rerun = await project.run(['rerun', 'latest', '--format', 'json', '--otel'], { server, env: otelEnv(receiver.url) });
    expect(rerun.code).toBe(1);
    expect(byName(receiver.spans, 'agentmark.row')).toHaveLength(6);
    receiver.spans.length = 0;
    await project.write('outputs.jsonl', `${JSON.stringify({ input: { word: 'alpha' }, output: 'alpha' })}\n`);
    const scored = await project.run(['score', 'prompts/words.prompt.mdx', '--outputs', 'outputs.jsonl', '--judge-model', 'openai/gpt-4o', '--format', 'json', '--quiet', '--otel'], { server, env: otelEnv(receiver.url) });
    expect(scored.stderr).toBe('');
    expect(scored.code).toBe(0);
    expect(spanTree(receiver.spans)).toBe(['agentmark.run', '  agentmark.row #0.0 gen_ai.evaluation.result(polite)', '    chat gpt-4o [judge]'].join('\n'));
    expect(byName(receiver.spans, 'agentmark.row')[0]?.attributes['agentmark.pregenerated']).toBe(true);
  });
  it('--otel-content adds the row input, output, expected output and tool arguments', async () => {
    receiver = await startOtlpReceiver();
    const result = await project.run([...args, '--rows', '1', '--repeat', '1', '--otel', '--otel-content'], { server, env: otelEnv(receiver.url) });
    expect(result.code).toBe(0);
    const [row] = byName(receiver.spans, 'agentmark.row');
    expect(row?.attributes).toMatchObject({
      'langfuse.observation.input': '{"word":"weather"}',
      'langfuse.observation.output': 'It is 4 degrees.',
      'langfuse.experiment.item.expected_output': '"It is 4 degrees."',
    });
    expect(byName(receiver.spans, 'chat gpt-4o-mini')[0]?.attributes['gen_ai.output.messages']).toBe(
      JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'It is 4 degrees.' }], finish_reason: 'stop' }]),
    );
    expect(byName(receiver.spans, 'execute_tool weather')[0]?.attributes).toMatchObject({ 'gen_ai.tool.call.arguments': '{"city":"Oslo"}', 'gen_ai.tool.call.result': '{"city":"Oslo","celsius":4}' });
  });
  it('runs export: a collector that is down is one warning line and exit 1; without --otel, or with --watch on a run, a usage error', async () => {
    expect((await project.run(args, { server })).code).toBe(1);
    receiver = await startOtlpReceiver('unavailable');
    const failed = await project.run(['runs', 'export', 'latest', '--otel', '--otel-timeout', '1'], { env: otelEnv(receiver.url) });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    // A loaded machine may not see the 503s' retries end within the 1 s bound: either way no span went out.
    expect(failed.stderr).toMatch(/^warning: otel: 19 of 19 spans not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \((?:\d+ failed exports?; last: .+|no answer within 1 s)\)\n$/);
    const noTarget = await project.run(['runs', 'export', 'latest']);
    expect(noTarget).toMatchObject({ code: 2, stderr: 'error: runs export needs a target\n  hint: add --otel (the OTLP endpoint comes from OTEL_EXPORTER_OTLP_ENDPOINT)\n' });
    const watched = await project.run(['run-experiment', 'prompts/words.prompt.mdx', '--watch', '--otel']);
    expect(watched.code).toBe(2);
    expect(watched.stderr).toContain('--otel and --watch cannot be used together');
  });
});
