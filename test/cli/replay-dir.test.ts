import { afterEach, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

test('a replayDir that is not a folder stops every command with exit 2 at its line:col', async () => {
  const project = await tempProject({
    'agentmark.json': '{\n  "version": "2.0.0",\n  "replayDir": "fixtures/responses"\n}\n',
    'p.prompt.mdx': '---\nname: p\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n<User>hi</User>\n',
  });
  cleanup = project.cleanup;
  for (const args of [['validate'], ['run-experiment', 'p.prompt.mdx']]) {
    const result = await runCli(args, { cwd: project.dir, env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('agentmark.json:3:16: /replayDir "fixtures/responses" is not a folder');
    expect(result.stderr).toContain('hint: point replayDir at the committed folder of recorded answers');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }
});
