import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPromptFiles, loadPrompt } from '../../src/prompt/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/prompts/support', import.meta.url));

describe('an AgentMark-style prompt', () => {
  it('loads and renders unchanged', async () => {
    const prompt = await loadPrompt(join(FIXTURES, 'customer-support.prompt.mdx'));
    expect(prompt.name).toBe('customer-support');
    expect(prompt.kind).toBe('text');
    expect(prompt.warnings).toEqual([]);
    expect(prompt.files).toEqual([join(FIXTURES, 'customer-support.prompt.mdx'), join(FIXTURES, 'components/policy.mdx')]);
    expect(prompt.inputSchema).toMatchObject({ type: 'object', required: ['customer_name', 'question'] });
    const props = prompt.testSettings.props ?? {};
    expect(prompt.render(props)).toEqual({
      name: 'customer-support',
      messages: [
        {
          role: 'system',
          content: [
            'You are a support agent for **Acme**.',
            '',
            'Follow the Acme Cloud refund policy: refunds within 30 days.',
            '',
            '## Style',
            '',
            '- Be concise.',
            "- Use the customer's name.",
          ].join('\n'),
        },
        {
          role: 'user',
          content: [
            'Customer: Dana',
            'Priority: high (gold member)',
            '',
            'Recent orders:',
            '1. A-100 — SHIPPED',
            '2. A-101 — PROCESSING',
            '',
            'Question: Where is my order?',
          ].join('\n'),
        },
      ],
      text_config: { model_name: 'openai/gpt-4o-mini', temperature: 0.3, max_tokens: 400, stop_sequences: ['###'] },
      test_settings: prompt.testSettings,
      agentmark_meta: { version: 3 },
    });
    expect(prompt.render({ customer_name: 'Eli', tier: 'free', question: 'Refund?' }).messages?.[1]).toEqual({
      role: 'user',
      content: 'Customer: Eli\nPriority: normal\n\nRecent orders:\n\nQuestion: Refund?',
    });
  });
});

describe('findPromptFiles', () => {
  it('lists *.prompt.mdx recursively, sorted, skipping node_modules and dot-folders', async () => {
    expect(await findPromptFiles(FIXTURES)).toEqual([
      join(FIXTURES, 'customer-support.prompt.mdx'),
      join(FIXTURES, 'nested/second.prompt.mdx'),
    ]);
  });
});
