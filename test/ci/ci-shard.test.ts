import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { tempProject } from '../helpers/temp-project.js';
import { byInstruction, ciRepo, featureBranch, type CiRepo } from './ci-repo.js';

interface Report {
  shard?: { index: number; count: number };
  merged?: { count: number };
  prompts: Array<{ path: string; verdict: string; head?: { rows: number }; comparison?: { evals: unknown[]; changedRows: { regressed: number } } }>;
}

let server: OpenAIServer;
let repo: CiRepo;
let out: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  server = await startOpenAIServer({ handler: byInstruction });
  repo = await ciRepo(server);
  await featureBranch(repo);
  out = await tempProject();
}, 30_000);
afterAll(async () => {
  await server.close();
  await repo.cleanup();
  await out.cleanup();
});

describe('agentmark ci --shard i/n and ci merge', () => {
  it('each part checks its rows; merge joins them into the whole check, with the whole run\'s statistics', async () => {
    const part = (i: number) => join(out.dir, `part-${i}.json`);
    for (const i of [1, 2]) {
      const result = await repo.run(['--base', 'main', '--shard', `${i}/2`, '--quiet', '-o', part(i)]);
      expect([0, 1]).toContain(result.code);
    }
    const merged = await repo.run(['merge', part(1), part(2), '--format', 'json']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(1);
    const report = JSON.parse(merged.stdout) as Report;
    expect(report.merged).toEqual({ count: 2 });
    expect(report.prompts.map((p) => [p.path, p.verdict, p.head?.rows])).toEqual([
      ['prompts/alpha.prompt.mdx', 'regressed', 6],
      ['prompts/beta.prompt.mdx', 'unchanged', 6],
      ['prompts/delta.prompt.mdx', 'new', 6],
      ['prompts/gamma.prompt.mdx', 'removed', undefined],
    ]);
    // The same comparison as one unsharded ci (its runs answered from the same cache).
    const whole = JSON.parse((await repo.run(['--base', 'main', '--format', 'json', '--quiet'])).stdout) as Report;
    expect(report.prompts[0]?.comparison?.evals).toEqual(whole.prompts[0]?.comparison?.evals);
    expect(report.prompts[0]?.comparison?.changedRows.regressed).toBe(6);

    const markdown = await repo.run(['merge', part(1), part(2), '--format', 'markdown']);
    expect(markdown.stdout).toContain('| ❌ | `prompts/alpha.prompt.mdx` | **regressed** |');
  }, 90_000);

  it('a missing part, or one given twice, is exit 2', async () => {
    const part = join(out.dir, 'part-1.json');
    const missing = await repo.run(['merge', part]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: shard 2 of 2 missing: a check of part of the rows cannot pass for all of them\n  hint: give every part's report\n");
    const twice = await repo.run(['merge', part, part]);
    expect(twice.stderr).toBe('error: shard 1/2 is given twice\n');
  }, 60_000);
});
