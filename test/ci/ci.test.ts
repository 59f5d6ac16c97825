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
    const before = server.requests.length;
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
    expect(server.requests.length - before).toBe(24);
    const instructionOf = (request: { body: Record<string, unknown> }): string => JSON.stringify(request.body);
    expect(server.requests.slice(before).filter((r) => instructionOf(r).includes('Echo the word.'))).toHaveLength(6);
    expect(server.requests.slice(before).filter((r) => instructionOf(r).includes('Repeat the word.'))).toHaveLength(6);
    expect(await repo.worktreeFolders()).toEqual([]);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(repo.git('status', '--porcelain')).toBe('');

    // Warm: no model request at all; alpha's base is the run the first ci copied into the store.
    const comment = join(tmpdir(), `agentmark-ci-comment-${process.pid}.md`);
    const second = await repo.run(['--base', 'main', '-o', comment, '--quiet']);
    expect(second.code).toBe(1);
    expect(server.requests.length - before).toBe(24);
    const markdown = await readFile(comment, 'utf8');
    const lines = markdown.split('\n').filter((line) => /^\| \S+ \| `prompts\//.test(line));
    expect(lines.map((line) => line.split(' | ').slice(1, 3).join(' '))).toEqual([
      '`prompts/alpha.prompt.mdx` **regressed**',
      '`prompts/beta.prompt.mdx` **unchanged**',
      '`prompts/delta.prompt.mdx` **new**',
      '`prompts/gamma.prompt.mdx` **removed**',
    ]);
    expect(lines[0]).toContain('exact: 100.0% [54.1–100.0] → 0.0% [0.0–45.9]');
    expect(markdown).toContain('<details open><summary>❌ prompts/alpha.prompt.mdx: regressed</summary>');
    expect(markdown.startsWith('<!-- agentmark-ci -->\n### ❌ AgentMark CI: 1 regressed, 1 new, 1 removed, 1 unchanged\n')).toBe(true);
    expect(repo.git('status', '--porcelain')).toBe('');

    // The table, piped, fits 80 columns.
    const table = await repo.run(['--base', 'main', '--quiet'], { env: { COLUMNS: '80' } });
    expect(table.stdout.replace(/\([0-9a-f]{12}\)/, '(<commit>)')).toBe(
      [
        'agentmark ci: base main (<commit>) → working tree',
        '',
        '✘ regressed  prompts/alpha.prompt.mdx  (6 → 6 rows, $0.0000)',
        '    exact: 100.0% [54.1–100.0] → 0.0% [0.0–45.9]',
        '    regressed: exact: pass rate significantly worse (-100.0 points, one-sided p',
        '      = 0.016 after Holm < α = 0.05)',
        '    rows flipped: 6 regressed, 0 improved',
        '= unchanged  prompts/beta.prompt.mdx  (6 rows, $0.0000)',
        '    exact: 100.0% [54.1–100.0] (same)',
        '+ new        prompts/delta.prompt.mdx  (6 rows, $0.0000)',
        '    exact: 100.0% [54.1–100.0]',
        '- removed    prompts/gamma.prompt.mdx',
        '',
        '1 regressed, 1 new, 1 removed, 1 unchanged; exit 1: regressed:',
        '  prompts/alpha.prompt.mdx; head gates failed: prompts/alpha.prompt.mdx',
        '',
      ].join('\n'),
    );
    expect(table.stdout.split('\n').every((line) => [...line].length <= 80)).toBe(true);
  }, 60_000);
});

describe('agentmark ci fails closed', () => {
  it('a base ref git does not know is exit 2 naming it, before any model call', async () => {
    const before = server.requests.length;
    const result = await repo.run(['--base', 'no-such-branch']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: no base to compare with: git does not know "no-such-branch"\n  hint: fetch it first (e.g. git fetch origin main), or add --allow-missing-base\n');
    expect(server.requests.length).toBe(before);
    // The defaults say which refs they tried.
    const defaults = await repo.run([], { env: { GITHUB_BASE_REF: 'release' } });
    expect(defaults.code).toBe(2);
    expect(defaults.stderr).toMatch(/^error: no base to compare with: git does not know "origin\/release" or "release"\n/);
  });

  it('--allow-missing-base: the prompts are `no base` and the exit code says nothing about them', async () => {
    const result = await repo.run(['prompts/beta.prompt.mdx', '--base', 'no-such-branch', '--allow-missing-base', '--format', 'json', '--quiet']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.base).toEqual({ tried: ['no-such-branch'] });
    expect(report.prompts.map((p) => [p.path, p.verdict, p.note])).toEqual([['prompts/beta.prompt.mdx', 'no base', 'no base commit']]);
  });

  it('a base run that cannot start is exit 2 saying what was tried; the worktree is removed', async () => {
    // `broken` has alpha pointing at a dataset that does not exist; `fixed` (from it) repairs it.
    repo.git('checkout', '-q', '-b', 'broken', 'main');
    await repo.write('prompts/alpha.prompt.mdx', (await readFile(join(repo.dir, 'prompts/alpha.prompt.mdx'), 'utf8')).replace('../datasets/words.jsonl', '../datasets/missing.jsonl'));
    repo.git('commit', '-q', '-am', 'alpha reads a missing dataset');
    repo.git('checkout', '-q', '-b', 'fixed');
    await repo.write('prompts/alpha.prompt.mdx', (await readFile(join(repo.dir, 'prompts/alpha.prompt.mdx'), 'utf8')).replace('../datasets/missing.jsonl', '../datasets/words.jsonl'));
    repo.git('commit', '-q', '-am', 'alpha reads its dataset again');
    try {
      const result = await repo.run(['prompts/alpha.prompt.mdx', '--base', 'broken', '--format', 'json', '--quiet']);
      expect(result.code).toBe(2);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.prompts).toHaveLength(1);
      expect(report.prompts[0]?.verdict).toBe('no base');
      expect(report.prompts[0]?.note).toMatch(/^tried: a finished run of prompts\/alpha\.prompt\.mdx at [0-9a-f]{12} in the run store \(none\); a run of prompts\/alpha\.prompt\.mdx in a worktree of [0-9a-f]{12}, which could not start \(dataset \"\.\.\/datasets\/missing\.jsonl\" not found/);
      expect(await repo.worktreeFolders()).toEqual([]);
      expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(repo.git('status', '--porcelain')).toBe('');
      const allowed = await repo.run(['prompts/alpha.prompt.mdx', '--base', 'broken', '--allow-missing-base', '--quiet']);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toContain('! no base  prompts/alpha.prompt.mdx  (6 rows, $0.0000)');
    } finally {
      repo.git('checkout', '-q', 'feature');
    }
  });
});

describe('agentmark ci interrupted', () => {
  for (const presses of [1, 2]) {
    it(`Ctrl-C ${presses === 1 ? 'once' : 'twice'} while the base runs: exit 130 and the worktree is removed`, async () => {
      const own = await ciRepo(server);
      try {
        await featureBranch(own);
        let arrived!: () => void;
        const baseCalled = new Promise<void>((resolve) => (arrived = resolve));
        server.setHandler((request) => {
          if (!request.messagesText.includes('Repeat the word.')) return byInstruction(request);
          arrived();
          return { hang: true };
        });
        const result = await own.run(['--base', 'main', '--quiet'], {
          onSpawn: (child) => {
            void baseCalled.then(async () => {
              // The worktree exists while its run waits on the model.
              expect(await own.worktreeFolders()).toHaveLength(1);
              for (let i = 0; i < presses; i++) child.kill('SIGINT');
            });
          },
        });
        expect(result.code).toBe(130);
        expect(await own.worktreeFolders()).toEqual([]);
        expect(own.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
        expect(own.git('status', '--porcelain')).toBe('');
      } finally {
        server.setHandler(byInstruction);
        await own.cleanup();
      }
    }, 60_000);
  }
});

describe('agentmark ci --max-cost', () => {
  it('says the estimated live calls, stops at the limit, names the unfinished prompts and exits 2', async () => {
    const own = await ciRepo(server);
    try {
      await featureBranch(own);
      const before = server.requests.length;
      // One row costs about 1.35e-6 USD at gpt-4o-mini's price (5 tokens in, 1 out).
      const result = await own.run(['--base', 'main', '--max-cost', '0.000001', '--concurrency', '1', '--format', 'json']);
      expect(result.code).toBe(2);
      const lines = result.stderr.split('\n');
      expect(lines[0]).toBe('ci: 4 prompts; estimated live model calls: 24 (cached answers are free)');
      // The limit is reached as the first row ends; the row the pool had already sent next finishes (paid for), then no more.
      expect(server.requests.length - before).toBe(2);
      const report = JSON.parse(result.stdout) as Report & { costLimit: { maxUsd: number }; estimatedLiveCalls: number };
      expect(report.estimatedLiveCalls).toBe(24);
      expect(report.costLimit.maxUsd).toBe(0.000001);
      expect(report.prompts.map((p) => [p.path, p.verdict])).toEqual([
        ['prompts/alpha.prompt.mdx', 'unfinished'],
        ['prompts/beta.prompt.mdx', 'unfinished'],
        ['prompts/delta.prompt.mdx', 'unfinished'],
        ['prompts/gamma.prompt.mdx', 'removed'],
      ]);
      expect(lines).toContain('error: prompts/alpha.prompt.mdx: unfinished: not finished: --max-cost 0.000001 USD was reached');
      expect(lines).toContain('error: prompts/delta.prompt.mdx: unfinished: not finished: --max-cost 0.000001 USD was reached');
      expect(await own.worktreeFolders()).toEqual([]);
      // Warm now for alpha's first two base rows only: the estimate counts what is left.
      const again = await own.run(['--base', 'main', '--max-cost', '0.000001', '--concurrency', '1', '--format', 'json']);
      expect(again.stderr.split('\n')[0]).toBe('ci: 4 prompts; estimated live model calls: 22 (cached answers are free)');
    } finally {
      await own.cleanup();
    }
  }, 60_000);
});
