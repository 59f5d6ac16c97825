import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { byInstruction, ciRepo, featureBranch, type CiRepo } from './ci-repo.js';

interface Report {
  base: { ref?: string; commit?: string; tried: string[] };
  prompts: Array<{ path: string; verdict: string; note?: string; base?: { source?: string; runId: string }; head?: { runId: string; passed: boolean }; comparison?: { changedRows: { regressed: number } } }>;
  exitCode: number;
}

let server: OpenAIServer;
let repo: CiRepo;

beforeAll(async () => {
  server = await startOpenAIServer({ handler: byInstruction });
  repo = await ciRepo(server);
  await featureBranch(repo);
}, 30_000);
afterAll(async () => {
  await server.close();
  await repo.cleanup();
});

describe('agentmark ci --base main', () => {
  it('reports regressed / new / removed / unchanged, exits 1, and replays what did not change', async () => {
    const first = await repo.run(['--base', 'main', '--format', 'json', '--quiet']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(1);
    const report = JSON.parse(first.stdout) as Report;
    expect(report.base.ref).toBe('main');
    expect(report.base.commit).toBe(repo.git('rev-parse', 'main').trim());
    expect(report.prompts.map((p) => [p.path, p.verdict])).toEqual([
      ['prompts/alpha.prompt.mdx', 'regressed'],
      ['prompts/beta.prompt.mdx', 'unchanged'],
      ['prompts/delta.prompt.mdx', 'new'],
      ['prompts/gamma.prompt.mdx', 'removed'],
    ]);
    const alpha = report.prompts[0];
    expect(alpha?.base?.source).toBe('worktree');
    expect(alpha?.comparison?.changedRows.regressed).toBe(6);
    // Cold cache: alpha at base and at head, beta and delta at head only (6 rows each).
    expect(server.requests).toHaveLength(24);
    const instructionOf = (request: { body: Record<string, unknown> }): string => JSON.stringify(request.body);
    expect(server.requests.filter((r) => instructionOf(r).includes('Echo the word.'))).toHaveLength(6);
    expect(server.requests.filter((r) => instructionOf(r).includes('Repeat the word.'))).toHaveLength(6);
    expect(await repo.worktreeFolders()).toEqual([]);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(repo.git('status', '--porcelain')).toBe('');

    // Warm: no model request at all; alpha's base is the run the first ci copied into the store.
    const comment = join(tmpdir(), `agentmark-ci-comment-${process.pid}.md`);
    const second = await repo.run(['--base', 'main', '-o', comment, '--quiet']);
    expect(second.code).toBe(1);
    expect(server.requests).toHaveLength(24);
    const markdown = await readFile(comment, 'utf8');
    const lines = markdown.split('\n').filter((line) => /^\| \S+ \| `prompts\//.test(line));
    expect(lines.map((line) => line.split(' | ').slice(1, 3).join(' '))).toEqual([
      '`prompts/alpha.prompt.mdx` **regressed**',
      '`prompts/beta.prompt.mdx` **unchanged**',
      '`prompts/delta.prompt.mdx` **new**',
      '`prompts/gamma.prompt.mdx` **removed**',
    ]);
    expect(lines[0]).toContain('exact: 100.0% [61.0–100.0] → 0.0% [0.0–39.0]');
    expect(markdown).toContain('<details open><summary>❌ prompts/alpha.prompt.mdx: regressed</summary>');
    expect(markdown.startsWith('<!-- agentmark-ci -->\n### ❌ AgentMark CI: 1 regressed, 1 new, 1 removed, 1 unchanged\n')).toBe(true);
    expect(repo.git('status', '--porcelain')).toBe('');
  }, 60_000);
});
