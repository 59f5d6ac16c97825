/**
 * Scenario: conversations (issue 40). 1,000 conversations of 2 turns, 4 calls (a simulated user
 * and the prompt, 2 calls each: `max_turns: 2`) against the loopback server at 0 ms, beside a
 * 4,000-row single-turn run: the same 4,000 calls, default concurrency. Target: ≤ 1.5× the
 * single-turn run's wall. Runs alternate, so the machine's load hits both alike. Memory flat in
 * the number of conversations: one run of 4× the conversations (4,000, 16,000 calls) after the
 * timed ones, its peak RSS against the 1,000-conversation runs' median (target ≤ 1.25×, our
 * reading of "flat": what grows with the rows is the output, written as it goes, not the heap).
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
/** The conversations of the memory run: 4× the timed runs'. */
const MANY = 4 * CONVERSATIONS;
/** Peak RSS of the memory run over the timed conversation runs' median, at most. */
const FLAT = 1.25;

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
    const writeChats = (count: number): Promise<void> =>
      writeFile(join(single.dir, 'datasets', 'chats.jsonl'), `${Array.from({ length: count }, (_, i) => JSON.stringify({ input: { q: `question ${i}` }, scenario: { n: i } })).join('\n')}\n`);
    await writeChats(CONVERSATIONS);
    await writeFile(join(single.dir, 'prompts', 'chat.prompt.mdx'), CHAT_PROMPT);
    await writeFile(join(single.dir, 'prompts', 'user.prompt.mdx'), USER_PROMPT);
    const once = async (prompt: string, calls = CALLS) => {
      await single.clearRuns();
      context.server.latencyMs = 0;
      context.server.reset();
      const args = [context.bin, 'run-experiment', prompt, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--no-cache'];
      const run = await measureNode(args, { cwd: single.dir, env: cliEnv(context.server), timeoutMs: 300_000 });
      // The single-turn prompt's rows all pass exact; the conversations have no evals.
      if (run.code !== 0) notes.push(`${prompt}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
      if (context.server.requests !== calls) notes.push(`${prompt}: server saw ${context.server.requests} requests, expected ${calls}`);
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
      // Memory flat in the number of conversations: 4× of them, once.
      await writeChats(MANY);
      const many = await once('prompts/chat.prompt.mdx', 4 * MANY);
      const manyRss = many.peakRssMb === undefined ? [] : [many.peakRssMb];
      context.log(`  ${MANY} conversations: ${many.wallMs.toFixed(0)} ms, peak RSS ${many.peakRssMb?.toFixed(0) ?? '?'} MB`);
      const rss = chatRss.length > 0 ? median(chatRss) : undefined;
      return {
        id: 'conversation',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('wall, conversations', 'ms', chat, { ideal, idealText: 'the 4,000-row single-turn run', target: { value: ideal * 1.5, source: 'issue 40', text: '≤ 1.5× the single-turn run' } }),
          metric('wall, single-turn', 'ms', plain),
          ...(chatRss.length > 0 ? [metric('peak RSS, conversations', 'MB', chatRss)] : []),
          ...(rss !== undefined && manyRss.length > 0
            ? [metric(`peak RSS, ${MANY.toLocaleString('en-US')} conversations`, 'MB', manyRss, { ideal: rss, idealText: `the ${CONVERSATIONS.toLocaleString('en-US')}-conversation runs' median`, target: { value: rss * FLAT, source: 'issue 40', text: `memory flat: ≤ ${FLAT}× at 4× the conversations` } })]
            : []),
        ],
        details: { conversations: CONVERSATIONS, calls: CALLS, ratio: Math.round((median(chat) / ideal) * 100) / 100, ...(rss !== undefined && many.peakRssMb !== undefined ? { rssRatioAt4x: Math.round((many.peakRssMb / rss) * 100) / 100 } : {}) },
      };
    } finally {
      await single.cleanup();
    }
  },
};
