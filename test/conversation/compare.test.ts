import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/index.js';
import { fixture, type Fixture } from '../experiment/setup.js';
import { conversationFiles, scriptedModel, SUPPORT_PROMPT, talks } from './setup.js';

let current: Fixture | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

describe('compare on conversations', () => {
  it('pairs conversations by row; a changed row carries both transcripts, to show side by side', async () => {
    const files = conversationFiles([], talks(1), { ended: { type: 'boolean', scorer: 'conversation_ended' } });
    files['prompts/echo.prompt.mdx'] = SUPPORT_PROMPT().replace('  conversation:', '  evals: [ended]\n  conversation:');
    current = await fixture(files, scriptedModel());
    const base = await current.run();
    // The head stops after one user turn: the conversation now ends at max_turns.
    await writeFile(join(current.dir, 'prompts/echo.prompt.mdx'), SUPPORT_PROMPT(['    max_turns: 1']).replace('  conversation:', '  evals: [ended]\n  conversation:'));
    const head = await current.run();
    const result = await compareRuns(base.runId, head.runId, { projectRoot: current.dir });
    const [row] = result.changedRows.rows;
    expect(row?.change).toBe('regressed');
    expect(row?.baseConversation?.messages.map((m) => m.content)).toEqual(['I want a refund', 're: I want a refund', 'Order 42', 're: Order 42', 'Thanks', 're: Thanks']);
    expect(row?.headConversation?.messages.map((m) => m.content)).toEqual(['I want a refund', 're: I want a refund']);
    expect([row?.baseConversation?.endedBy, row?.headConversation?.endedBy]).toEqual(['stop', 'max_turns']);
  });
});
