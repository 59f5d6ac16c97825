import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS } from '../../src/store/heartbeat.js';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { launchBrowser, SCREENSHOTS } from '../view/browser.js';
import { atWidth, outsideWindow, TABLES, viewportProblems } from '../view/geometry.js';
import { REVIEW_PROJECT, REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, startServe, type ServeProcess } from './serve-process.js';

/** The browser globals the page callbacks use (they run in the page). */
interface PageBox {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
declare const document: { querySelector(selector: string): { getBoundingClientRect(): PageBox } | null };
declare function getComputedStyle(el: unknown): { backgroundColor: string; color: string };

/** A run of the same prompt, started later than REVIEW_RUN, whose writer went silent after 3 rows. */
const ABANDONED = '20261202-090000.000-bbbbbb';

let pg: TestPostgres;
let storage: PgStorage;
let made: { dir: string; cleanup: () => Promise<void> };
let clone: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase('abandoned_filter');
  storage = await PgStorage.connect(url, { migrate: true });
  const env = { AGENTMARK_STORE_URL: url };
  made = await reviewProject();
  expect((await runCli(['runs', 'push', REVIEW_RUN], { cwd: made.dir, env, timeoutMs: 60_000 })).code).toBe(0);
  const dir = join(made.dir, '.agentmark', 'runs', REVIEW_RUN);
  const { integrity: _i, summary: _s, endedAt: _e, ...started } = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
  const lines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
  await storage.createRun({ ...started, id: ABANDONED, startedAt: '2026-12-02T09:00:00.000Z', status: 'running' });
  await storage.appendRows(ABANDONED, 0, lines.slice(0, 3));
  // As if its writer had been silent for longer than the threshold (no waiting in a test).
  await storage.pool.query('UPDATE agentmark_runs SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1', [ABANDONED, (ABANDONED_AFTER_MS + 1_000) / 1000]);
  // A second clone with no files in common views the store.
  clone = await tempProject(REVIEW_PROJECT);
  const token = await createToken(clone.dir, 'vera', 'viewer', env);
  server = await startServe(clone.dir, [], env);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
  await page.fill('#token', token);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await page.waitForSelector(`table.runs tbody tr[data-run="${ABANDONED}"]`);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await storage?.close();
  await pg?.stop();
  await clone?.cleanup();
  await made?.cleanup();
});
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

/** Each listed run and the text of its status badge, in the table's order. */
async function listed(): Promise<Array<[string, string]>> {
  const rows = await page.locator('table.runs tbody tr').all();
  return Promise.all(rows.map(async (row) => [(await row.getAttribute('data-run')) as string, (await row.locator('.status').textContent()) as string] as [string, string]));
}

/** How far the filter form's bottom is above the table's top, in px (negative: they overlap). */
function filtersAboveTable(): Promise<number> {
  return page.evaluate(() => {
    const form = document.querySelector('form.filters')?.getBoundingClientRect();
    const table = document.querySelector('.table-scroll')?.getBoundingClientRect();
    return form === undefined || table === undefined ? Number.NaN : table.top - form.bottom;
  });
}

describe('the runs page over a team store, in Chromium: the status filter has abandoned', () => {
  it('lists both runs; the abandoned one has a badge of its own (not the default look of an unknown class)', async () => {
    expect(await listed()).toEqual([
      [ABANDONED, 'abandoned'],
      [REVIEW_RUN, 'completed'],
    ]);
    expect(await page.locator('select[aria-label=status] option').allTextContents()).toEqual(['all', 'running', 'abandoned', 'completed', 'interrupted', 'failed', 'partial']);
    const look = (selector: string) => page.$eval(selector, (el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    // style.css: --error (#7a3d00) on --error-bg (#fdebd3), the light theme's.
    expect(await look('.status-abandoned')).toEqual(['rgb(122, 61, 0)', 'rgb(253, 235, 211)']);
    expect(await look('.status-completed')).not.toEqual(await look('.status-abandoned'));
  });

  it('choosing abandoned shows only the abandoned run; laid out at 1280 and 390 px with the filters above the table', async () => {
    await page.selectOption('select[aria-label=status]', 'abandoned');
    await page.waitForFunction(() => document.querySelector('table.runs tbody tr:nth-child(2)') === null);
    expect(await listed()).toEqual([[ABANDONED, 'abandoned']]);
    expect(await page.textContent('form.filters .count')).toBe('1 shown');
    // The abandoned run has no summary, so its pass rates are an empty list: the runs table alone is checked.
    expect(await viewportProblems(page, { tables: [TABLES.runs] })).toEqual({ 1280: [], 390: [] });
    for (const width of [1280, 390]) {
      expect(await atWidth(page, width, filtersAboveTable)).toBeGreaterThanOrEqual(0);
      expect(await atWidth(page, width, () => outsideWindow(page, 'form.filters select, form.filters input'))).toEqual([]);
      await atWidth(page, width, () => page.screenshot({ path: join(SCREENSHOTS, `serve-runs-abandoned-${width}.png`), fullPage: true }));
    }
    await page.selectOption('select[aria-label=status]', 'completed');
    await page.waitForSelector(`table.runs tbody tr[data-run="${REVIEW_RUN}"]`);
    expect(await listed()).toEqual([[REVIEW_RUN, 'completed']]);
  });

  it("the abandoned run's page says abandoned in its header, styled as in the list", async () => {
    await page.goto(`${server.url}#/runs/${ABANDONED}`);
    await page.waitForSelector('h1 .status');
    expect(await page.textContent('h1 .status')).toBe('abandoned');
    expect(await page.getAttribute('h1 .status', 'class')).toBe('status status-abandoned');
    expect(await page.$eval('h1 .status', (el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor])).toEqual(['rgb(122, 61, 0)', 'rgb(253, 235, 211)']);
    for (const width of [1280, 390]) await atWidth(page, width, () => page.screenshot({ path: join(SCREENSHOTS, `serve-run-abandoned-${width}.png`), fullPage: true }));
  });
});
