/**
 * `agentmark compare` of two conversation runs, as a user reads it: a changed row says how many
 * turns each side's conversation took and how it ended, in the terminal and in markdown (the
 * viewer's compare page shows the two transcripts side by side; compare-view.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationProject, supportPrompt, type ConversationProject } from './cli-project.js';

let project: ConversationProject;
beforeAll(async () => {
  // The base stops at 2 user turns (ended by max_turns); the head lets the script end by stop.
  project = await conversationProject(2, supportPrompt(2, ['  evals: [ended]']));
  expect((await project.cli(['run-experiment', 'prompts/support.prompt.mdx', '--quiet'])).code).toBe(1);
  await project.setPrompt(supportPrompt(4, ['  evals: [ended]']));
  expect((await project.cli(['run-experiment', 'prompts/support.prompt.mdx', '--quiet'])).code).toBe(0);
}, 120_000);
afterAll(() => project.cleanup());

describe('compare on conversation runs', () => {
  it('the terminal, piped: each changed row has its turns and end on both sides', async () => {
    const result = await project.cli(['compare', 'latest~1', 'latest']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const at = lines.indexOf('▲ improved #0  input: {"customer":"C0"}');
    expect(lines.slice(at, at + 6)).toEqual([
      '▲ improved #0  input: {"customer":"C0"}',
      '    diff: re: [-Order-]{+Thank+} [-1234-]{+you+}',
      '    turns: [2t max] → [3t stop]',
      '    ended: FAIL → PASS',
      '      base: ended by max_turns (2)',
      '      head: ended by the stop text',
    ]);
  });

  it('markdown: the same turns line under the changed row', async () => {
    const result = await project.cli(['compare', 'latest~1', 'latest', '--format', 'markdown']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(['- base: `re: Order 1234`', '- head: `re: Thank you`', '- turns: [2t max] → [3t stop]', '- ended: FAIL → PASS (ended by max_turns (2) → ended by the stop text)'].join('\n'));
  });
});
