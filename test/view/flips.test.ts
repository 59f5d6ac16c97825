import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import type { ViewServer } from '../../src/view/index.js';
import { tempProject } from '../helpers/temp-project.js';
import { openViewer, type OpenViewer } from './browser.js';
import { row, writeRun } from './synthetic-run.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

const FIRST = '20261201-100000.000-aaaaaa';
const EMPTY = '20261201-100100.000-bbbbbb';
const RERUN = '20261201-100200.000-cccccc';
const LONE_EMPTY = '20261201-100300.000-dddddd';
const LONE = '20261201-100400.000-eeeeee';

const rows = (failing: number[]): RowResult[] =>
  [0, 1, 2].map((i) => row(i, { evals: { exact: failing.includes(i) ? { passed: false, score: 0, normalized: 0 } : { passed: true, score: 1, normalized: 1 } } }));

/** A run that was interrupted before its first row finished: no row, no summary's rows. */
async function interrupted(projectRoot: string, id: string, promptPath: string): Promise<void> {
  const handle = await writeRun(projectRoot, { id, promptPath, evalNames: ['exact'], rows: [], keepOpen: true });
  await handle.updateManifest({ status: 'interrupted', endedAt: '2026-11-30T10:00:01.000Z' });
  await handle.close();
}

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let viewer: OpenViewer | undefined;
let page: Page;
let pageErrors: string[] = [];

describe('flips on the run page are counted against the previous run that has rows', () => {
  beforeAll(async () => {
    project = await tempProject({ 'agentmark.json': JSON.stringify({ agentmarkPath: '.' }) });
    await writeRun(project.dir, { id: FIRST, evalNames: ['exact'], rows: rows([]) });
    await interrupted(project.dir, EMPTY, 'prompts/synthetic.prompt.mdx');
    await writeRun(project.dir, { id: RERUN, evalNames: ['exact'], rows: rows([1]) });
    await interrupted(project.dir, LONE_EMPTY, 'prompts/other.prompt.mdx');
    await writeRun(project.dir, { id: LONE, promptPath: 'prompts/other.prompt.mdx', evalNames: ['exact'], rows: rows([]) });
    viewer = await openViewer({ projectRoot: project.dir, port: 0 });
    ({ server, page, pageErrors } = viewer);
  }, 120_000);

  afterAll(async () => {
    await viewer?.close();
    await project?.cleanup();
  });

  it('passes over an interrupted run with no rows: 1 row flipped since the run before it', async () => {
    await page.goto(`${server.url}#/runs/${RERUN}`);
    await page.waitForSelector('[data-testid=flips]');
    expect(((await page.textContent('[data-testid=flips]')) ?? '').replace(/\s+/g, ' ').trim()).toBe(
      `1 row flipped since the previous run of this prompt (${FIRST}): 1 pass → fail, 0 fail → pass. show them compare the two runs`,
    );
    expect(await page.locator('[data-testid=nothing-to-compare]').count()).toBe(0);
  });

  it('says why there is nothing to compare when the only earlier run has no rows', async () => {
    await page.goto(`${server.url}#/runs/${LONE}`);
    await page.waitForSelector('[data-testid=nothing-to-compare]');
    expect(await page.textContent('[data-testid=nothing-to-compare]')).toBe(
      `nothing to compare with: the previous run of this prompt, ${LONE_EMPTY} (interrupted, no row recorded), has no rows`,
    );
    expect(await page.locator('[data-testid=flips]').count()).toBe(0);
  });

  it('the first run of a prompt says nothing about flips', async () => {
    await page.goto(`${server.url}#/runs/${FIRST}`);
    await page.waitForSelector('.row[data-index]');
    const answer = (await (await fetch(`${server.url}api/runs/${FIRST}/flips`)).json()) as unknown;
    expect(answer).toEqual({ previous: null, flips: [] });
    expect(await page.locator('[data-testid=flips], [data-testid=nothing-to-compare]').count()).toBe(0);
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
