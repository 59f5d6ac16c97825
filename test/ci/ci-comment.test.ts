import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { byInstruction, ciRepo, featureBranch, promptFile, type CiRepo } from './ci-repo.js';
import { startGitHubStandIn, type GitHubStandIn } from './github-stand-in.js';

const TOKEN = 'ghs_secret-token-never-printed';
let server: OpenAIServer;
let github: GitHubStandIn;
let repo: CiRepo;
let outside: { dir: string; cleanup: () => Promise<void> };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startOpenAIServer({ handler: byInstruction });
  github = await startGitHubStandIn('acme/prompts', 7);
  repo = await ciRepo(server);
  await featureBranch(repo);
  outside = await tempProject();
  await writeFile(join(outside.dir, 'event.json'), JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
  env = { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'acme/prompts', GITHUB_EVENT_PATH: join(outside.dir, 'event.json') };
}, 30_000);
afterAll(async () => {
  await server.close();
  await github.close();
  await repo.cleanup();
  await outside.cleanup();
});

describe('agentmark ci --comment', () => {
  it('creates one comment, updates it on the next run, and never prints the token', async () => {
    const first = await repo.run(['--base', 'main', '--comment', '--quiet'], { env });
    expect(first.code).toBe(1);
    expect(first.stderr).toBe('ci: pull-request comment created (4 prompts)\n');
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body.startsWith('<!-- agentmark-ci -->\n### ❌ AgentMark CI: 1 regressed, 1 new, 1 removed, 1 unchanged\n')).toBe(true);
    const second = await repo.run(['--base', 'main', '--comment', '--quiet'], { env });
    expect(second.stderr).toBe('ci: pull-request comment updated (4 prompts)\n');
    expect(github.comments).toHaveLength(1);
    expect(github.requests.map((r) => r.line)).toEqual([
      'GET /repos/acme/prompts/issues/7/comments?per_page=100&page=1',
      'POST /repos/acme/prompts/issues/7/comments',
      'GET /repos/acme/prompts/issues/7/comments?per_page=100&page=1',
      `PATCH /repos/acme/prompts/issues/comments/${github.comments[0]?.id}`,
    ]);
    expect(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    for (const text of [first.stdout, first.stderr, second.stdout, second.stderr]) expect(text).not.toContain(TOKEN);
  }, 60_000);

  it('a 500 from GitHub is a warning; the exit code is the verdict', async () => {
    github.failWith = 500;
    try {
      const result = await repo.run(['--base', 'main', '--comment', '--quiet'], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('warning: --comment: listing the comments of acme/prompts#7 failed (HTTP 500); no comment was posted\n');
      expect(result.stderr).not.toContain(TOKEN);
    } finally {
      github.failWith = undefined;
    }
  }, 60_000);

  it('without a token it says so and posts nothing', async () => {
    const before = github.requests.length;
    const result = await repo.run(['--base', 'main', '--comment', '--quiet'], { env: { ...env, GITHUB_TOKEN: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^warning: --comment: GITHUB_TOKEN is not set, so no comment was posted/);
    expect(github.requests.length).toBe(before);
  }, 60_000);
});

describe('agentmark ci markdown', () => {
  it('over 65,536 characters it is cut with a note; $GITHUB_STEP_SUMMARY gets the same text', async () => {
    // A 70,000-character instruction: alpha's prompt diff alone is past GitHub's limit.
    const filler = Array.from({ length: 1400 }, (_, i) => `Line ${String(i).padStart(4, '0')}: shout it, loud and clear, always.`).join('\n');
    await repo.write('prompts/alpha.prompt.mdx', promptFile('alpha', `Shout the word.\n${filler}`));
    const comment = join(outside.dir, 'comment.md');
    const summary = join(outside.dir, 'summary.md');
    await writeFile(summary, '# earlier step\n');
    try {
      const result = await repo.run(['--base', 'main', '-o', comment, '--quiet'], { env: { GITHUB_STEP_SUMMARY: summary } });
      expect(result.code).toBe(1);
      const markdown = await readFile(comment, 'utf8');
      expect(markdown.length).toBeLessThanOrEqual(65_536);
      expect(markdown).toContain("> ✂️ Cut to fit GitHub's 65,536-character comment limit; left out: the details of prompts/alpha.prompt.mdx. The whole report: `agentmark ci --format json`.");
      expect(markdown).toContain('| ❌ | `prompts/alpha.prompt.mdx` | **regressed** |');
      expect(await readFile(summary, 'utf8')).toBe(`# earlier step\n${markdown}\n`);
    } finally {
      repo.git('checkout', '-q', '--', 'prompts/alpha.prompt.mdx');
    }
  }, 60_000);
});
