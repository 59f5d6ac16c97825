import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { withoutIds } from './otel-tree.js';

/**
 * Row content on spans: a sentinel in every field a row brings (input, expected output,
 * metadata), and through them in the output, tool arguments and results, eval reasons, a
 * scorer's error and the provider's error message. Without --otel-content none of it may be in
 * any byte the collector receives; with it, all of it is.
 */
const config = `import { jsonSchema, tool } from 'ai';

export default {
  tools: {
    lookup: tool({
      description: 'Looks a text up',
      inputSchema: jsonSchema({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
      execute: async ({ query }: { query: string }) => ({ found: query + '-result' }),
    }),
  },
  scorers: {
    echoes: ({ output, expectedOutput }: { output: unknown; expectedOutput?: unknown }) => ({ passed: output === expectedOutput, reason: 'got ' + String(output) + ', expected ' + String(expectedOutput) }),
    nosy: ({ input }: { input: { text: string } }) => { throw new Error('cannot score ' + input.text); },
  },
};
`;
const prompt =
  '---\nname: leaky\ntext_config:\n  model_name: openai/gpt-4o-mini\n  tools: [lookup]\n  max_calls: 3\n' +
  'test_settings:\n  dataset: ../datasets/leaky.jsonl\n  evals: [exact, echoes, nosy]\n---\n\n<System>You help.</System>\n<User>{props.text}</User>\n';
const rows = [
  { input: { text: 'SNTL-input-a' }, expected_output: 'SNTL-expected-a', note: 'SNTL-metadata-a' },
  { input: { text: 'SNTL-tool-b' }, expected_output: 'SNTL-expected-b' },
  { input: { text: 'SNTL-refused-c' }, expected_output: 'SNTL-expected-c' },
];
const scores = { exact: { type: 'boolean', scorer: 'exact_match' }, echoes: { type: 'boolean' }, nosy: { type: 'boolean' } };

const server = useOpenAIServer();
let project: CliProject;
let receiver: OtlpReceiver;

beforeEach(async () => {
  server.setHandler((request): OpenAIReply => {
    const text = request.lastUserText;
    // A provider's error message may quote the request: it is row content too.
    if (text.includes('refused')) return { status: 400, message: `Invalid content: ${text}` };
    if (text.includes('tool') && request.toolResults.length === 0) return { toolCalls: [{ name: 'lookup', args: { query: text } }] };
    return { text: `answer to ${text}` };
  });
  project = await cliProject({
    'agentmark.config.ts': config,
    'prompts/leaky.prompt.mdx': prompt,
    'datasets/leaky.jsonl': rows.map((row) => JSON.stringify(row)).join('\n') + '\n',
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
  await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
  await project.cleanup();
});

const env = (): Record<string, string> => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
const run = (extra: string[]) => project.run(['run-experiment', 'prompts/leaky.prompt.mdx', '--format', 'json', '--quiet', '--otel', ...extra], { server, env: env() });
const payload = (): string => receiver.jsonBodies.join('\n');

/** Each piece of row text the run produced, as it reaches a span with --otel-content. */
const everyPiece = [
  'SNTL-input-a', // input
  'SNTL-expected-a', // expected output
  'SNTL-metadata-a', // metadata
  'answer to SNTL-input-a', // output
  'got answer to SNTL-input-a, expected SNTL-expected-a', // a scorer's reason
  'cannot score SNTL-input-a', // a scorer's error
  '{\\"query\\":\\"SNTL-tool-b\\"}', // tool arguments (a JSON string inside the JSON body)
  'SNTL-tool-b-result', // tool result
  'Invalid content: SNTL-refused-c', // the provider's error message
];

describe('--otel without --otel-content', () => {
  it('sends no text of a row on any span or event, live or by runs export; the spans and eval events are all there', async () => {
    const result = await run([]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(receiver.spans.map((span) => span.name).sort()).toEqual([
      'agentmark.row',
      'agentmark.row',
      'agentmark.row',
      'agentmark.run',
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool lookup',
    ]);
    const events = receiver.spans.flatMap((span) => span.events.map((event) => event.attributes['gen_ai.evaluation.name']));
    expect(events).toEqual(['exact', 'echoes', 'nosy', 'exact', 'echoes', 'nosy']);
    // The failure is still named (error.type), without the provider's message that quotes the row.
    const failed = receiver.spans.filter((span) => span.status.code === 2).map((span) => [span.name, span.attributes['error.type'], span.status.message]);
    expect(failed.sort()).toEqual([
      ['agentmark.row', 'MODEL_REQUEST_REJECTED', undefined],
      ['chat gpt-4o-mini', 'MODEL_REQUEST_REJECTED', undefined],
    ]);
    expect(payload()).toContain('"agentmark.row"');
    expect(payload()).not.toContain('SNTL');

    receiver.jsonBodies.length = 0;
    const exported = await project.run(['runs', 'export', 'latest', '--otel'], { server, env: env() });
    expect(exported.code).toBe(0);
    expect(payload()).toContain('"agentmark.row"');
    expect(payload()).not.toContain('SNTL');
  });
});

describe('--otel --otel-content', () => {
  it('sends all of it', async () => {
    const result = await run(['--otel-content']);
    expect(result.code).toBe(1);
    const sent = payload();
    for (const piece of everyPiece) expect(sent, piece).toContain(piece);
  });

  it('puts the rendered messages on the chat span (GenAI conventions and OpenInference), the row input and output on the row span; runs export sends the same', async () => {
    expect((await run(['--otel-content'])).code).toBe(1);
    const live = [...receiver.spans];
    const row = live.find((span) => span.name === 'agentmark.row' && span.attributes['agentmark.row.index'] === 0);
    const chat = live.find((span) => span.name === 'chat gpt-4o-mini' && span.parentSpanId === row?.spanId);
    const messages = [
      { role: 'system', parts: [{ type: 'text', content: 'You help.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'SNTL-input-a' }] },
    ];
    expect(JSON.parse(String(chat?.attributes['gen_ai.input.messages']))).toEqual(messages);
    expect(chat?.attributes).toMatchObject({
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'answer to SNTL-input-a' }], finish_reason: 'stop' }]),
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'gpt-4o-mini',
      'llm.provider': 'openai',
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': 'You help.',
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.content': 'SNTL-input-a',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': 'answer to SNTL-input-a',
      'input.value': JSON.stringify([{ role: 'system', content: 'You help.' }, { role: 'user', content: 'SNTL-input-a' }]),
      'input.mime_type': 'application/json',
      'output.value': 'answer to SNTL-input-a',
      'output.mime_type': 'text/plain',
    });
    const input = chat?.attributes['gen_ai.usage.input_tokens'];
    const output = chat?.attributes['gen_ai.usage.output_tokens'];
    expect(input).toBeTypeOf('number');
    expect(chat?.attributes).toMatchObject({ 'llm.token_count.prompt': input, 'llm.token_count.completion': output, 'llm.token_count.total': Number(input) + Number(output) });
    expect(row?.attributes).toMatchObject({ 'input.value': '{"text":"SNTL-input-a"}', 'input.mime_type': 'application/json', 'output.value': 'answer to SNTL-input-a' });

    receiver.spans.length = 0;
    expect((await project.run(['runs', 'export', 'latest', '--otel', '--otel-content'], { server, env: env() })).code).toBe(0);
    expect(withoutIds(receiver.spans)).toEqual(withoutIds(live));
  });
});

describe('without --otel-content', () => {
  it('the chat span has no messages and no OpenInference attributes (gen_ai.* name the model and tokens)', async () => {
    expect((await run([])).code).toBe(1);
    const chat = receiver.spans.find((span) => span.name === 'chat gpt-4o-mini' && span.status.code !== 2);
    expect(chat?.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.provider.name': 'openai' });
    const keys = receiver.spans.flatMap((span) => Object.keys(span.attributes));
    expect(keys.filter((key) => /messages|^input\.|^output\.|^llm\./.test(key))).toEqual([]);
  });
});

describe('--otel-trace-per row', () => {
  it("makes each row × repeat the root of its own trace, linked to the run's span, sharing the run id as session and experiment", async () => {
    const result = await run(['--otel-trace-per', 'row']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const spans = receiver.spans;
    const runSpan = spans.find((span) => span.name === 'agentmark.run');
    const rowSpans = spans.filter((span) => span.name === 'agentmark.row');
    const runId = (await project.runIds())[0];
    expect(runSpan?.attributes).toMatchObject({ 'session.id': runId, 'langfuse.session.id': runId, 'langfuse.experiment.id': runId });
    expect(rowSpans).toHaveLength(3);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(4);
    for (const row of rowSpans) {
      expect(row.parentSpanId).toBe('');
      expect(row.traceId).not.toBe(runSpan?.traceId);
      expect(row.links).toEqual([{ traceId: runSpan?.traceId, spanId: runSpan?.spanId, attributes: { 'agentmark.link': 'run' } }]);
      expect(row.attributes).toMatchObject({ 'session.id': runId, 'langfuse.session.id': runId, 'langfuse.experiment.id': runId, 'langfuse.experiment.item.root_observation_id': row.spanId });
      // A row's calls and tools are in the row's trace.
      for (const child of spans.filter((span) => span.parentSpanId === row.spanId)) expect(child.traceId).toBe(row.traceId);
    }
    expect(spans.filter((span) => span.traceId === runSpan?.traceId)).toEqual([runSpan]);
  });

  it('runs export takes it too; the default stays one trace; another value is a usage error', async () => {
    expect((await run([])).code).toBe(1);
    expect(new Set(receiver.spans.map((span) => span.traceId)).size).toBe(1);
    receiver.spans.length = 0;
    expect((await project.run(['runs', 'export', 'latest', '--otel', '--otel-trace-per', 'row'], { server, env: env() })).code).toBe(0);
    expect(new Set(receiver.spans.map((span) => span.traceId)).size).toBe(4);
    const bad = await run(['--otel-trace-per', 'item']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: --otel-trace-per must be run or row (got "item")\n  hint: run: one trace for the whole run (the default); row: one trace per row, linked to the run\'s (Langfuse)\n',
    );
  });
});
