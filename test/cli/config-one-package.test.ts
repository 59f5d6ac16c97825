import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { REPO_ROOT, tempProject } from '../helpers/temp-project.js';

const server = useOpenAIServer();
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The config reference's `agentmark.config.ts` example: the first ts block after that heading. */
async function readmeConfig(): Promise<string> {
  const reference = await readFile(join(REPO_ROOT, 'docs', 'config.md'), 'utf8');
  const section = reference.slice(reference.indexOf('## `agentmark.config.ts`'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/config.md has no ts block under ## `agentmark.config.ts`');
  return block;
}

describe('one package: a config imports everything it needs from agentmark-eval', () => {
  it("the config reference's example runs in a project that installed only agentmark-eval", async () => {
    const config = await readmeConfig();
    expect(config).toMatch(/from 'agentmark-eval';/);
    expect(config).not.toMatch(/from 'ai'/);
    const project = await tempProject({
      'agentmark.json': JSON.stringify({ version: '2.0.0', scores: { short: { type: 'boolean' } } }),
      'agentmark.config.ts': config,
      'prompts/hello.prompt.mdx': [
        '---',
        'name: hello',
        'text_config:',
        '  model_name: openai/gpt-4o-mini',
        'test_settings:',
        '  dataset: ../datasets/words.jsonl',
        '  evals: [short]',
        '---',
        '',
        '<User>{shout(props.word, 2)}</User>',
        '',
      ].join('\n'),
      'datasets/words.jsonl': '{"input": {"word": "hi"}}\n',
    });
    cleanup = project.cleanup;
    // As `npm install agentmark-eval` leaves it: the package in node_modules, its own
    // dependencies (ai among them) resolvable from the package only, not from the project.
    await mkdir(join(project.dir, 'node_modules'));
    await symlink(REPO_ROOT, join(project.dir, 'node_modules', 'agentmark-eval'), 'dir');
    const fromProject = createRequire(join(project.dir, 'agentmark.config.ts'));
    expect(() => fromProject.resolve('ai')).toThrow(/Cannot find module 'ai'/);

    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' };
    const run = await runCli(['run-experiment', 'prompts/hello.prompt.mdx', '--quiet', '--format', 'jsonl', '--no-cache'], { cwd: project.dir, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const row = JSON.parse(run.stdout.trim()) as { output: string; evals: Record<string, { passed: boolean }> };
    expect(row).toMatchObject({ output: 'HI!!', evals: { short: { passed: true } } });
  });
});
