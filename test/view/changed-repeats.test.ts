import { afterEach, describe, expect, it } from 'vitest';
import { fail, makeRun, pass } from '../compare/make-run.js';
import { tempProject } from '../helpers/temp-project.js';
import { openViewer, type OpenViewer } from './browser.js';

let viewer: OpenViewer | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await viewer?.close();
  await cleanup?.();
  viewer = undefined;
});

describe("the compare page: a changed row with repeats says how many passed on each side", () => {
  it('2/3 passed → 0/3 passed, where the first repeat alone said FAIL → FAIL', async () => {
    const project = await tempProject();
    cleanup = project.cleanup;
    const base = await makeRun(project.dir, { id: '20261130-100000.001-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'b', evals: { ok: [fail('no'), pass(), pass()] } }] });
    const head = await makeRun(project.dir, { id: '20261130-100000.002-abcdef', evalNames: ['ok'], rows: [{ input: { i: 0 }, output: 'h', evals: { ok: [fail('no'), fail('no'), fail('no')] } }] });
    viewer = await openViewer({ projectRoot: project.dir, port: 0 });
    await viewer.page.goto(`${viewer.server.url}#/compare/${base}/${head}`);
    await viewer.page.waitForSelector('.changed-row');
    const row = viewer.page.locator('.changed-row tr[data-eval=ok]');
    expect([await row.locator('.base-verdict').textContent(), await row.locator('.head-verdict').textContent()]).toEqual(['2/3 passed', '0/3 passed']);
    expect(viewer.pageErrors).toEqual([]);
  });
});
