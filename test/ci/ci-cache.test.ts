import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { byInstruction, ciRepo, featureBranch, type CiRepo } from './ci-repo.js';

let server: OpenAIServer;
let repo: CiRepo;
let jobs: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await startOpenAIServer({ handler: byInstruction });
  repo = await ciRepo(server);
  await featureBranch(repo);
  jobs = await tempProject();
}, 30_000);
afterAll(async () => {
  await server.close();
  await repo.cleanup();
  await jobs.cleanup();
});

/** A CI job: a fresh clone of the pull request's branch (no .agentmark/), as actions/checkout makes. */
function freshClone(name: string): string {
  const dir = join(jobs.dir, name);
  execFileSync('git', ['clone', '-q', '--branch', 'feature', repo.dir, dir]);
  return dir;
}

describe('agentmark ci --cache-dir between CI jobs', () => {
  it('a restored cache folder answers every request of a new job; --cache-only then needs no key', async () => {
    const cache = join(jobs.dir, 'restored-cache');
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' };
    const first = freshClone('job-1');
    const before = server.requests.length;
    // The default base in a clone: origin/main (there is no local main).
    const filled = await runCli(['ci', '--cache-dir', cache, '--format', 'json'], { cwd: first, env, timeoutMs: 60_000 });
    expect(filled.code).toBe(1);
    expect((JSON.parse(filled.stdout) as { base: { ref: string } }).base.ref).toBe('origin/main');
    expect(server.requests.length - before).toBe(24);
    expect((await readdir(cache)).every((name) => /^[0-9a-f]\.jsonl$/.test(name))).toBe(true);
    expect(await readdir(join(first, '.agentmark', 'cache')).catch(() => 'none')).toBe('none');

    // The next job: a new clone (an empty run store), the same cache folder restored.
    const second = freshClone('job-2');
    const replayed = await runCli(['ci', '--cache-dir', cache, '--format', 'json'], { cwd: second, env, timeoutMs: 60_000 });
    expect(replayed.code).toBe(1);
    expect(replayed.stderr.split('\n')[0]).toBe('ci: 4 prompts; estimated live model calls: 0 (cached answers are free)');
    expect(server.requests.length - before).toBe(24);

    // A fork's pull request: no key at all, every answer from the cache of main's jobs.
    const fork = freshClone('job-fork');
    const offline = await runCli(['ci', '--cache-dir', cache, '--cache-only', '--format', 'json', '--quiet'], { cwd: fork, env: { OPENAI_BASE_URL: server.url }, timeoutMs: 60_000 });
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(1);
    expect((JSON.parse(offline.stdout) as { prompts: Array<{ verdict: string }> }).prompts.map((p) => p.verdict)).toEqual(['regressed', 'unchanged', 'new', 'removed']);
    expect(server.requests.length - before).toBe(24);
  }, 90_000);
});
