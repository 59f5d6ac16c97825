/**
 * Scenario: conversations (issue 40). 1,000 conversations of 2 turns, 4 calls (a simulated user
 * and the prompt, 2 calls each: `max_turns: 2`) against the loopback server at 0 ms, beside a
 * 4,000-row single-turn run: the same 4,000 calls, default concurrency. Target: ≤ 1.5× the
 * single-turn run's wall. Runs alternate, so the machine's load hits both alike.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv } from './context.js';
import { measureNode } from './measure.js';
import { createBenchProject } from './project.js';
import { median, metric } from './report.js';
import type { Scenario } from './scenarios.js';

const CONVERSATIONS = 1000;
const CALLS = 4 * CONVERSATIONS;

const CHAT_PROMPT = [
  '---',
  'name: bench-chat',
  'text_config:',
  '  model_name: openai/bench-model',
  '  temperature: 0',
  'test_settings:',
  '  dataset: ../datasets/chats.jsonl',
  '  conversation:',
  '    simulator: ./user.prompt.mdx',
  '    max_turns: 2',
  '---',
  '',
  '<System>Answer with "answer" followed by the number in the question.</System>',
  '',
].join('\n');

const USER_PROMPT = ['---', 'name: bench-user', 'text_config:', '  model_name: openai/bench-model', '---', '', '<System>You ask question {props.n}.</System>', ''].join('\n');

export const conversationScenario: Scenario = {
  id: 'conversation',
  title: '19 conversations (1,000 × 2 turns, 4 calls each, vs 4,000 single-turn rows, 0 ms)',
  defaultRuns: 3,
  async run(context, runs) {
    const notes: string[] = [];
    const single = await createBenchProject(CALLS);
    // The same project with a conversation prompt beside the single-turn one.
    const chats = Array.from({ length: CONVERSATIONS }, (_, i) => JSON.stringify({ input: { q: `question ${i}` }, scenario: { n: i } })).join('\n');
    await writeFile(join(single.dir, 'datasets', 'chats.jsonl'), `${chats}\n`);
    await writeFile(join(single.dir, 'prompts', 'chat.prompt.mdx'), CHAT_PROMPT);
    await writeFile(join(single.dir, 'prompts', 'user.prompt.mdx'), USER_PROMPT);
    const once = async (prompt: string) => {
      await single.clearRuns();
      context.server.latencyMs = 0;
      context.server.reset();
      const args = [context.bin, 'run-experiment', prompt, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--no-cache'];
      const run = await measureNode(args, { cwd: single.dir, env: cliEnv(context.server), timeoutMs: 300_000 });
      // The single-turn prompt's rows all pass exact; the conversations have no evals.
      if (run.code !== 0) notes.push(`${prompt}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
      if (context.server.requests !== CALLS) notes.push(`${prompt}: server saw ${context.server.requests} requests, expected ${CALLS}`);
      return run;
    };
    try {
      await once(single.promptPath);
      await once('prompts/chat.prompt.mdx');
      const plain: number[] = [];
      const chat: number[] = [];
      const chatRss: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const a = await once(single.promptPath);
        const b = await once('prompts/chat.prompt.mdx');
        plain.push(a.wallMs);
        chat.push(b.wallMs);
        if (b.peakRssMb !== undefined) chatRss.push(b.peakRssMb);
        context.log(`  run ${i + 1}/${runs}: ${a.wallMs.toFixed(0)} ms single-turn, ${b.wallMs.toFixed(0)} ms conversations`);
      }
      const ideal = median(plain);
      return {
        id: 'conversation',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('wall, conversations', 'ms', chat, { ideal, idealText: 'the 4,000-row single-turn run', target: { value: ideal * 1.5, source: 'issue 40', text: '≤ 1.5× the single-turn run' } }),
          metric('wall, single-turn', 'ms', plain),
          ...(chatRss.length > 0 ? [metric('peak RSS, conversations', 'MB', chatRss)] : []),
        ],
        details: { conversations: CONVERSATIONS, calls: CALLS, ratio: Math.round((median(chat) / ideal) * 100) / 100 },
      };
    } finally {
      await single.cleanup();
    }
  },
};
