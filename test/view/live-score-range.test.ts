import { afterEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/index.js';
import { RunCatalog } from '../../src/view/run-catalog.js';
import { tempProject } from '../helpers/temp-project.js';
import { fixture, promptFile } from '../experiment/setup.js';
import { row, writeRun } from './synthetic-run.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

describe("a running run's live mean interval stays inside the score's range", () => {
  it('the manifest of a run carries its evals\' score ranges from the start', async () => {
    const fx = await fixture({ 'prompts/echo.prompt.mdx': promptFile({ evals: ['exact', 'length'] }) });
    cleanup = fx.cleanup;
    const outcome = await fx.run({}, { scorers: { length: () => ({ score: 10 }) } });
    const manifest = await new RunStore(fx.dir).manifest(outcome.runId);
    expect(manifest.options.scoreRanges).toEqual({ exact: [0, 1], length: [0, 10] });
  });

  it('clips the live summary\'s interval to [0, 10]', async () => {
    const project = await tempProject();
    cleanup = project.cleanup;
    const id = '20261130-100000.000-cccccc';
    const scored = (index: number, score: number) => row(index, { evals: { length: { score } } });
    // Scores 10, 10, 9: mean 9.667, t(2) interval [8.23, 11.10] before clipping.
    const handle = await writeRun(project.dir, { id, evalNames: ['length'], rows: [scored(0, 10), scored(1, 10), scored(2, 9)], keepOpen: true, options: { scoreRanges: { length: [0, 10] } } });
    try {
      const catalog = new RunCatalog(project.dir);
      const manifest = await catalog.manifest(id);
      const index = await catalog.index(id, manifest!);
      const [length] = index.liveSummary().evals;
      expect(length?.meanScore).toBeCloseTo(29 / 3, 12);
      expect(length?.meanScoreCi95?.[1]).toBe(10);
      expect(length?.meanScoreCi95?.[0]).toBeLessThan(9);
    } finally {
      await handle.close();
    }
  });
});
