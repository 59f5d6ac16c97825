import { MockLanguageModelV3 } from 'ai/test';
import { answer, text } from '../model/mock-model.js';
import { agentmarkJson } from '../experiment/setup.js';

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

export const SCRIPT = ['I want a refund', 'Order 42', 'Thanks'];

/** The text of a prompt message. */
export function textOf(message: Prompt[number]): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * One mock for both parties. The simulator (its system message starts "You are the customer")
 * says its script's lines in turn, counted by its own earlier turns (its `assistant` messages),
 * then the stop text; the assistant answers `re: <last user message>`.
 */
export function scriptedModel(script: readonly string[] = SCRIPT): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const system = options.prompt.find((message) => message.role === 'system');
      if (system !== undefined && textOf(system).startsWith('You are the customer')) {
        const said = options.prompt.filter((message) => message.role === 'assistant').length;
        return answer(text(script[said] ?? '###STOP###'), 'stop', { input: 7, output: 3 });
      }
      const last = [...options.prompt].reverse().find((message) => message.role === 'user');
      return answer(text(last === undefined ? 'Hello, how can I help?' : `re: ${textOf(last)}`));
    },
  });
}

export const SUPPORT_PROMPT = (settings: string[] = []): string =>
  [
    '---',
    'name: support',
    'text_config:',
    '  model_name: mock/support',
    'test_settings:',
    '  dataset: ../datasets/talks.jsonl',
    '  conversation:',
    '    simulator: ./customer.prompt.mdx',
    ...settings,
    '---',
    '',
    '<System>You help customers of {props.shop}.</System>',
    '',
  ].join('\n');

export const CUSTOMER_PROMPT = [
  '---',
  'name: customer',
  'text_config:',
  '  model_name: mock/customer',
  'input_schema:',
  '  type: object',
  '  properties:',
  '    goal: { type: string }',
  '  required: [goal]',
  '---',
  '',
  '<System>You are the customer. Your goal: {props.goal}</System>',
  '',
].join('\n');

export function talks(count: number, extra: (i: number) => Record<string, unknown> = () => ({})): string {
  return `${Array.from({ length: count }, (_, i) => JSON.stringify({ input: { shop: `shop ${i}` }, scenario: { goal: `refund ${i}` }, ...extra(i) })).join('\n')}\n`;
}

export function conversationFiles(settings: string[] = [], rows = talks(2), scores: Record<string, unknown> = {}): Record<string, string> {
  return {
    'agentmark.json': agentmarkJson({ scores: { polite: { type: 'boolean', scorer: 'contains', options: { value: 're:' } }, ...scores } }),
    'prompts/echo.prompt.mdx': SUPPORT_PROMPT(settings),
    'prompts/customer.prompt.mdx': CUSTOMER_PROMPT,
    'datasets/talks.jsonl': rows,
  };
}
