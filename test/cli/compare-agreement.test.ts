import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOfRun, appendAnnotations, labelLine } from '../../src/review/index.js';
import { RunStore, openRunFolder } from '../../src/store/index.js';
import { runCli } from '../helpers/run-cli.js';
import { EVAL_NAMES, REVIEW_PROJECT, REVIEW_RUN, reviewProject, reviewRows } from '../view/review-run.js';
import { writeRun } from '../view/synthetic-run.js';

const HEAD = '20261201-110000.000-bbbbbb';
let project: { dir: string; cleanup: () => Promise<void> };
const cli = (args: string[]) => runCli(args, { cwd: project.dir, env: {}, timeoutMs: 60_000 });
const scores = JSON.parse(REVIEW_PROJECT['agentmark.json']).scores;

beforeAll(async () => {
  project = await reviewProject();
  // head: the same rows again, later, with row 1's judge now saying "not helpful"
  const rows = reviewRows();
  const changed = rows[1]!;
  changed.evals['helpful'] = { passed: false, score: 0, normalized: 0, reason: 'does not help' };
  await writeRun(project.dir, { id: HEAD, evalNames: EVAL_NAMES, rows });
  const manifest = join(project.dir, '.agentmark', 'runs', HEAD, 'manifest.json');
  const text = JSON.parse(await readFile(manifest, 'utf8')) as { startedAt: string };
  text.startedAt = '2026-11-30T11:00:00.000Z';
  await writeFile(manifest, JSON.stringify(text));
});

afterAll(() => project?.cleanup());

describe('compare with labels', () => {
  it('shows nothing of agreement while neither run has labels', async () => {
    const result = await cli(['compare', REVIEW_RUN, HEAD, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).not.toHaveProperty('agreement');
    expect((await cli(['compare', REVIEW_RUN, HEAD])).stdout).not.toContain('Judge agreement');
  });

  it('shows both runs\' agreement, each as agentmark agreement computes it, in json, table and markdown', async () => {
    const store = new RunStore(project.dir);
    const base = await openRunFolder(store.runDir(REVIEW_RUN));
    const lines = [];
    for await (const row of base.rowsInOrder()) {
      if (row.index > 3) continue;
      // people: rows 0 and 2 help, rows 1 and 3 do not
      lines.push(labelLine({ row, eval: 'helpful', value: row.index % 2 === 0, reviewer: 'ana', at: '2026-12-01T12:00:00.000Z' }, scores));
    }
    await appendAnnotations(base.dir, lines);
    const json = await cli(['compare', REVIEW_RUN, HEAD, '--format', 'json']);
    expect(json.stderr).toBe('');
    const { agreement } = JSON.parse(json.stdout) as { agreement: { base: unknown; head: unknown } };
    const expected = {
      base: await agreementOfRun(base, scores, store),
      // head's labels are base's, carried over: its outputs are the same
      head: await agreementOfRun(await openRunFolder(store.runDir(HEAD)), scores, store),
    };
    expect(agreement).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(expected.base.evals[0]).toMatchObject({ eval: 'helpful', n: 4, percentAgreement: { value: 0.75 } });
    expect(expected.head.evals[0]).toMatchObject({ eval: 'helpful', n: 4, percentAgreement: { value: 1 }, kappa: { value: 1 } });
    const table = (await cli(['compare', REVIEW_RUN, HEAD])).stdout;
    expect(table).toContain('Judge agreement with people (labels in each run; 95% intervals):\n  helpful  base  κ 0.50 [');
    expect(table).toMatch(/\n {11}head {2}κ 1\.00.*, agree 100\.0%.*, over 4 rows\n$/);
    const markdown = (await cli(['compare', REVIEW_RUN, HEAD, '--format', 'markdown'])).stdout;
    expect(markdown).toContain('| eval | base | head |');
  });
});
