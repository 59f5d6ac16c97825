import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResult, GridResult } from '../../src/compare/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { exampleProject } from './example-project.js';

// "More paired rows needed" is computed once (src/compare/detectable.ts, in compareRuns): every
// surface that shows a pair of runs shows the same figure. The README's walkthrough: v1, v2,
// then v1 again (the same answers, replayed).
//
// Reference values, computed apart with scipy 1.17 (scipy.stats.binom): the power of McNemar's
// exact one-sided test at α = 0.05 / 2 evals = 0.025 to find a 5-point drop over n pairs, a
// share ψ of them discordant (at least the drop itself): Σ_d binom.pmf(d, n, ψ) ·
// binom.sf(c(d) − 1, d, (ψ + 0.05) / 2ψ), c(d) the fewest regressions of d with
// binom.sf(c − 1, d, ½) ≤ 0.025. The first n with power ≥ 0.8:
//   exact_intent, v1 → v2: 1 improved, 2 regressed of 12 (ψ = 3/12): n = 817 (power 0.79982 at 816, 0.80032 at 817)
//   known_intent, v1 → v2: 1 improved of 12 (ψ = 1/12): n = 277 (0.79849 at 276, 0.80009 at 277)
//   either eval, v1 → v1 again: no discordant row (ψ taken as 0.05): n = 157 (0.79680 at 156, 0.80168 at 157)
// So 805 / 265 and 145 "more" are two different pairs (the grid of v1-again, v2, v1 has both), never one pair two ways.
let project: { dir: string; cleanup: () => Promise<void> };
let viewer: ViewServer;
let v1: string;
let v2: string;
let again: string;
const cli = (args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: project.dir, env: { COLUMNS: '80' }, timeoutMs: 60_000 });

beforeAll(async () => {
  project = await exampleProject();
  for (const prompt of ['prompts/classify-intent.prompt.mdx', 'prompts/classify-intent-v2.prompt.mdx', 'prompts/classify-intent.prompt.mdx']) {
    expect((await cli(['run-experiment', prompt, '--format', 'json', '-q'])).stderr).not.toMatch(/^error:/m);
  }
  [again, v2, v1] = (JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string }>).map((r) => r.id) as [string, string, string];
  viewer = await startViewServer({ projectRoot: project.dir, port: 0 });
}, 120_000);
afterAll(async () => {
  await viewer?.close();
  await project?.cleanup();
});

const needed = (c: CompareResult): Array<[string, number | undefined]> => c.evals.map((e) => [e.name, e.gate?.pairsNeeded]);
const V1_V2 = [['exact_intent', 817], ['known_intent', 277]];
const V1_AGAIN = [['exact_intent', 157], ['known_intent', 157]];

describe('paired rows needed: one figure per pair of runs, on every surface', () => {
  it('compare A B, compare A B C, the compare page and the grid page agree, and match the reference', async () => {
    const pair = JSON.parse((await cli(['compare', v1, v2, '--format', 'json'])).stdout) as CompareResult;
    expect(needed(pair)).toEqual(V1_V2);
    const grid = JSON.parse((await cli(['compare', v1, v2, again, '--format', 'json'])).stdout) as GridResult;
    expect(grid.comparisons.map(needed)).toEqual([V1_V2, V1_AGAIN]);
    const page = (await (await fetch(`${viewer.url}api/compare/${v1}/${v2}`)).json()) as CompareResult;
    expect(needed(page)).toEqual(V1_V2);
    const gridPage = (await (await fetch(`${viewer.url}api/grid/${v1}/${v2}/${again}`)).json()) as GridResult;
    expect(gridPage.comparisons.map(needed)).toEqual([V1_V2, V1_AGAIN]);
    // The gate line says what the figure is for: the drop to detect, on that eval, for that pair.
    expect(pair.gate.message).toContain('exact_intent: no significant drop, but smallest detectable drop 57.8 points > max drop 5; about 805 more paired rows needed to detect a 5-point drop (817 in all)');
    expect(pair.gate.message).toContain('known_intent: no significant drop, but smallest detectable drop 57.8 points > max drop 5; about 265 more paired rows needed to detect a 5-point drop (277 in all)');
  }, 60_000);

  it('the grid in the terminal names the pair of each line (base and head) and its figures', async () => {
    const table = (await cli(['compare', v1, v2, again])).stdout.replace(/\n {2}/g, ' ');
    expect(table).toMatch(/classify-intent-v2 vs classify-intent \(\S+\): [^\n]*about 805 more paired rows needed to detect a 5-point drop \(817 in all\)[^\n]*about 265 more/);
    expect(table).toContain(`classify-intent (${again}) vs classify-intent (${v1}): `);
    expect(table).toMatch(/classify-intent \(\S+\) vs classify-intent \(\S+\): [^\n]*about 145 more paired rows needed to detect a 5-point drop \(157 in all\)/);
  }, 60_000);
});
