import { existsSync } from 'node:fs';
import { cp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { REPO_ROOT, tempProject } from '../helpers/temp-project.js';

const CACHE = join(REPO_ROOT, '.agentmark', 'cache');
const recorded = existsSync(CACHE);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('the root example', () => {
  it.skipIf(!recorded)('runs offline from its recorded sample responses, in a copy of the repo, with no OpenAI settings', async () => {
    const { dir, cleanup } = await tempProject();
    cleanups.push(cleanup);
    for (const name of ['agentmark.json', 'agentmark.config.ts', 'package.json', 'examples', 'prompts', 'datasets']) {
      await cp(join(REPO_ROOT, name), join(dir, name), { recursive: true });
    }
    await cp(CACHE, join(dir, '.agentmark', 'cache'), { recursive: true });
    // as after `npm install` in a fresh clone: the config imports `ai` and the package itself
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await symlink(join(REPO_ROOT, 'dist'), join(dir, 'dist'), 'dir');

    const result = await runCli(['run-experiment', 'prompts/classify-intent.prompt.mdx'], { cwd: dir, env: {} });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect([0, 1]).toContain(result.code);
    expect(result.stdout).toMatch(/^│ # +│ Input +│ AI Result +│ Expected Output +│ exact_intent +│ known_intent +│$/m);
    expect(result.stdout).toMatch(/^ {2}Rows: {5}12 run, 0 errored, 12 cached, 0 pre-generated$/m);
  });

  it.runIf(!recorded)('is skipped until sample responses are recorded under .agentmark/cache', () => {
    console.warn(`skipped: no recorded sample responses at ${CACHE}`);
  });
});
