import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startOpenAIServer, type OpenAIRequestInfo, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

/** The simulated user's three-line script, said in turn, then the stop text. */
export const SCRIPT = ['I was charged twice', 'Order 1234', 'Thank you'];

/**
 * The loopback model of a conversation: the simulator (model sim-user) says the script's line
 * after its own earlier turns, 102 tokens a call; the assistant answers `re: <last user turn>`,
 * 11 tokens (fixed, so a test's sums are by hand).
 */
export function scripted(request: OpenAIRequestInfo): { text: string; usage: { input: number; output: number } } {
  if (request.model === 'sim-user') {
    const said = request.messagesText.split('\n').filter((line) => line.startsWith('assistant:')).length;
    return { text: SCRIPT[said] ?? '###STOP###', usage: { input: 100, output: 2 } };
  }
  return { text: `re: ${request.lastUserText}`, usage: { input: 10, output: 1 } };
}

/** The prompt under test, `prompts/support.prompt.mdx`, with `settings` lines in its test_settings. */
export const supportPrompt = (maxTurns: number, settings: string[] = []): string =>
  [
    '---',
    'name: support',
    'text_config:',
    '  model_name: openai/gpt-4o-mini',
    'test_settings:',
    '  dataset: talks.jsonl',
    ...settings,
    '  conversation:',
    '    simulator: ./customer.prompt.mdx',
    `    max_turns: ${maxTurns}`,
    '---',
    '<System>You help {props.customer}.</System>',
    '',
  ].join('\n');

export interface ConversationProject {
  dir: string;
  server: OpenAIServer;
  /** Rewrites the prompt under test. */
  setPrompt(text: string): Promise<void>;
  cli(args: string[]): Promise<CliResult>;
  cleanup(): Promise<void>;
}

/** A project of `rows` conversations (a scenario each) run by the built CLI against the loopback server. */
export async function conversationProject(rows: number, prompt: string, extra: Record<string, string> = {}): Promise<ConversationProject> {
  const made = await tempProject({
    'agentmark.json': JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: { ended: { type: 'boolean', scorer: 'conversation_ended' } } }),
    'prompts/support.prompt.mdx': prompt,
    'prompts/customer.prompt.mdx': '---\nname: customer\ntext_config:\n  model_name: openai/sim-user\n---\n<System>You are a customer. Goal: {props.goal}</System>\n',
    'prompts/talks.jsonl': `${Array.from({ length: rows }, (_, i) => JSON.stringify({ input: { customer: `C${i}` }, scenario: { goal: `refund ${i}` } })).join('\n')}\n`,
    ...extra,
  });
  const server = await startOpenAIServer({ handler: scripted });
  return {
    dir: made.dir,
    server,
    setPrompt: (text) => writeFile(join(made.dir, 'prompts/support.prompt.mdx'), text),
    cli: (args) => runCli(args, { cwd: made.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-conversation' }, timeoutMs: 60_000 }),
    cleanup: async () => {
      // A test may have closed it already (a server that dies mid-run).
      await server.close().catch(() => undefined);
      await made.cleanup();
    },
  };
}
