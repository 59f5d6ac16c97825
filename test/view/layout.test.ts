import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { launchBrowser } from './browser.js';
import { exampleProject } from './example-project.js';
import { TABLES, viewportProblems, type LayoutCheck } from './geometry.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let base: string;
let head: string;
const pageErrors: string[] = [];

const cli = (args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: project.dir, env: {}, timeoutMs: 60_000 });
const NONE = { 1280: [], 390: [] };

const RUNS: LayoutCheck = { tables: [TABLES.runs] };
const RUN: LayoutCheck = { tables: [TABLES.rows] };
const ROW: LayoutCheck = { tables: [TABLES.evals] };
const COMPARE: LayoutCheck = { tables: [TABLES.compareEvals], optional: [TABLES.grid] };

/** The run page with its rows' text in (not the "…" of rows still being fetched). */
async function runPageDrawn(): Promise<void> {
  await page.waitForSelector('.row[data-index]');
  await page.waitForFunction(() => !(document.querySelector('.row[data-index]')?.textContent ?? '…').includes('…'));
}

describe('every page is laid out: rows in one line, columns aligned, nothing overlapping, at 1280 and 390 px', () => {
  beforeAll(async () => {
    project = await exampleProject();
    // The README's walkthrough: v1 (the base), then v2 (the head), over the same dataset.
    for (const prompt of ['prompts/classify-intent.prompt.mdx', 'prompts/classify-intent-v2.prompt.mdx']) {
      const run = await cli(['run-experiment', prompt, '--format', 'json', '-q']);
      expect(run.stderr).not.toMatch(/^error:/m);
    }
    const runs = JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string }>;
    [head, base] = runs.map((r) => r.id) as [string, string];
    server = await startViewServer({ projectRoot: project.dir, port: 0 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await project?.cleanup();
  });

  describe('served by agentmark view', () => {
    it('the runs page', async () => {
      await page.goto(server.url);
      await page.waitForSelector('table.runs tbody tr');
      expect(await viewportProblems(page, RUNS)).toEqual(NONE);
    });

    it('the run page', async () => {
      await page.goto(`${server.url}#/runs/${base}`);
      await runPageDrawn();
      expect(await viewportProblems(page, RUN)).toEqual(NONE);
    });

    it('the row page', async () => {
      await page.goto(`${server.url}#/runs/${base}/rows/11`);
      await page.waitForSelector('.row-page .message');
      expect(await viewportProblems(page, ROW)).toEqual(NONE);
    });

    it('the compare page', async () => {
      await page.goto(`${server.url}#/compare/${base}/${head}`);
      await page.waitForSelector('.changed-row');
      expect(await viewportProblems(page, COMPARE)).toEqual(NONE);
    });
  });

  describe('the single-file report (--format html), opened from file://', () => {
    it('the run page and a row page', async () => {
      expect((await cli(['runs', 'show', base, '--format', 'html', '-o', 'run.html'])).code).toBe(1);
      await page.goto(pathToFileURL(join(project.dir, 'run.html')).href);
      await runPageDrawn();
      expect(await viewportProblems(page, RUN)).toEqual(NONE);
      await page.click('.row[data-index="11"] a');
      await page.waitForSelector('.row-page .message');
      expect(await viewportProblems(page, ROW)).toEqual(NONE);
    });

    it('the compare page', async () => {
      expect((await cli(['compare', base, head, '--format', 'html', '-o', 'compare.html'])).code).toBe(0);
      await page.goto(pathToFileURL(join(project.dir, 'compare.html')).href);
      await page.waitForSelector('.changed-row');
      expect(await viewportProblems(page, COMPARE)).toEqual(NONE);
    });
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
