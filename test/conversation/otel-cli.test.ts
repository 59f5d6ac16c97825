/**
 * `run-experiment --otel` of a conversation prompt (the built CLI, the loopback model, a real
 * OTLP receiver): each row's span has one child span per turn, in order, the simulated user's
 * turns marked, each with its call's tokens (see otel-turns.test.ts for the times and attributes
 * of every kind of turn).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { runCli } from '../helpers/run-cli.js';
import { conversationProject, supportPrompt, type ConversationProject } from './cli-project.js';

let project: ConversationProject | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await project?.cleanup();
  receiver = undefined;
  project = undefined;
});

describe('OTel of a conversation run (CLI)', () => {
  it('one span per turn under each row span, simulated turns marked, tokens per turn', async () => {
    project = await conversationProject(2, supportPrompt(4));
    receiver = await startOtlpReceiver();
    const result = await runCli(['run-experiment', 'prompts/support.prompt.mdx', '--otel', '--quiet'], {
      cwd: project.dir,
      env: { OPENAI_BASE_URL: project.server.url, OPENAI_API_KEY: 'sk-test-conversation', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = receiver.spans.filter((span) => span.name === 'agentmark.row');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const turns = receiver.spans.filter((span) => span.parentSpanId === row.spanId && span.name.startsWith('turn ')).sort((a, b) => Number(a.attributes['agentmark.turn.index']) - Number(b.attributes['agentmark.turn.index']));
      // The loopback's usage: the simulator 100 + 2 tokens a call, the assistant 10 + 1.
      expect(turns.map((span) => [span.name, span.kind, span.attributes['agentmark.turn.simulated'] ?? false, span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']])).toEqual([
        ['turn 0 user', 3, true, 100, 2],
        ['turn 1 assistant', 3, false, 10, 1],
        ['turn 2 user', 3, true, 100, 2],
        ['turn 3 assistant', 3, false, 10, 1],
        ['turn 4 user', 3, true, 100, 2],
        ['turn 5 assistant', 3, false, 10, 1],
      ]);
      // Laid end to end inside the row.
      for (const [at, span] of turns.entries()) {
        expect(span.startMs).toBeGreaterThanOrEqual(at === 0 ? row.startMs : (turns[at - 1]?.endMs ?? Infinity));
        expect(span.endMs).toBeLessThanOrEqual(row.endMs);
      }
    }
  }, 60_000);
});
