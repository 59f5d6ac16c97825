import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAVICON } from '../../src/view/favicon.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { launchBrowser } from './browser.js';
import { exampleProject } from './example-project.js';
import { TABLES, chartShapes, viewportProblems, type LayoutCheck } from './geometry.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let base: string;
let head: string;
const pageErrors: string[] = [];
/** Requests answered with an error (a missing favicon was one). */
const failedRequests: string[] = [];

const V1 = 'prompts/classify-intent.prompt.mdx';
const V2 = 'prompts/classify-intent-v2.prompt.mdx';
const cli = (args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: project.dir, env: {}, timeoutMs: 60_000 });
const NONE = { 1280: [], 390: [] };

const RUNS: LayoutCheck = { tables: [TABLES.runs, TABLES.rates] };
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
    // The README's walkthrough: v1 (the base), then v2 (the head), over the same dataset; v1
    // once more, so its chart has two points; and a prompt with five evals.
    for (const prompt of [V1, V2, V1, 'prompts/support-reply.prompt.mdx']) {
      const run = await cli(['run-experiment', prompt, '--format', 'json', '-q']);
      expect(run.stderr).not.toMatch(/^error:/m);
    }
    const runs = (JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string; prompt: string }>).reverse();
    base = runs.find((r) => r.prompt === V1)?.id as string;
    head = runs.find((r) => r.prompt === V2)?.id as string;
    server = await startViewServer({ projectRoot: project.dir, port: 0 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await project?.cleanup();
  });

  // Each test answers for what its own visits raised: a last "no page errors" test passed
  // vacuously when run alone, and blamed no one when it failed.
  afterEach(() => {
    expect({ pageErrors: pageErrors.splice(0), failedRequests: failedRequests.splice(0) }).toEqual({ pageErrors: [], failedRequests: [] });
  });

  describe('served by agentmark view', () => {
    it('the runs page', async () => {
      await page.goto(server.url);
      await page.waitForSelector('table.runs tbody tr');
      expect(await viewportProblems(page, RUNS)).toEqual(NONE);
      // An icon in the page: no browser asks for /favicon.ico (a 404).
      expect(await page.getAttribute('link[rel=icon]', 'href')).toBe(FAVICON);
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
      expect(await page.getAttribute('link[rel=icon]', 'href')).toBe(FAVICON);
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

  describe('charts', () => {
    it('the runs page: per prompt, pass rate over its runs, one point per run and eval, inside the axes', async () => {
      await page.goto(server.url);
      await page.waitForSelector('.pass-chart svg');
      const axes = { axes: true, yTitle: 'pass rate', outside: 0 };
      const intents = { exact_intent: 0, known_intent: 0 };
      expect((await chartShapes(page, '.pass-chart')).filter((c) => c.caption.includes('classify-intent'))).toEqual([
        { ...axes, caption: V2, xTitle: 'runs, oldest → newest (1)', series: { exact_intent: 1, known_intent: 1 }, marks: 2 },
        { ...axes, caption: V1, xTitle: 'runs, oldest → newest (2)', series: { exact_intent: 2, known_intent: 2 }, marks: 4 },
      ].map((c) => ({ ...c, series: { ...intents, ...c.series } })));
      // each point names its run
      const titles = await page.locator(`.pass-chart:has(figcaption:text-is("${V1}")) g[data-eval=exact_intent] .point title`).allTextContents();
      expect(titles).toEqual([expect.stringContaining(`run ${base}`), expect.stringMatching(/^exact_intent 91\.7% \(95% interval 64\.6%–98\.5%\) · run \d{8}-/)]);
    });

    it('the run page: a latency histogram with labelled axes', async () => {
      await page.goto(`${server.url}#/runs/${base}`);
      await runPageDrawn();
      const [latency] = await chartShapes(page, '.latency-card svg.chart');
      expect(latency).toMatchObject({ axes: true, xTitle: 'latency', yTitle: 'rows', series: {}, marks: 12, outside: 0 });
    });
  });

  describe('the checks themselves', () => {
    const table = (rowStyle: string): string => `<!doctype html><body style="margin:0"><div class="rows-table" style="max-width:600px">
      ${[0, 1].map((i) => `<div class="row" style="${rowStyle}"><span role="cell">${i}</span><span role="cell">input ${i}</span><span role="cell">PASS</span></div>`).join('')}
    </div></body>`;
    // A blank page first: content set into a report keeps the report's Content-Security-Policy,
    // which blocks these inline styles.
    beforeEach(() => page.goto('about:blank'));

    it('find a row whose cells are piled into one column (an invalid grid template), and pass a good one', async () => {
      await page.setContent(table('display:grid; height:40px; grid-template-columns:[object Object]'));
      const piled = await viewportProblems(page, RUN, [1280]);
      expect(piled[1280]).toEqual(expect.arrayContaining([
        expect.stringMatching(/^rows table row 0: cell 1 starts \d+ px below cell 0/),
        expect.stringMatching(/^rows table row 0: cell 2 sticks out of its row/),
      ]));
      await page.setContent(table('display:grid; height:40px; grid-template-columns:4rem 1fr 5rem'));
      expect(await viewportProblems(page, RUN, [1280, 390])).toEqual(NONE);
    });

    it('find rows drawn over each other', async () => {
      await page.setContent(table('display:grid; height:40px; grid-template-columns:4rem 1fr 5rem; margin-bottom:-20px'));
      expect((await viewportProblems(page, RUN, [1280]))[1280]).toEqual(['rows table: rows 0 and 1 overlap']);
    });

    it('find columns that do not line up across rows, and a page that scrolls sideways', async () => {
      await page.setContent(`<!doctype html><body style="margin:0"><table class="runs" style="width:1600px"><tr><td style="width:100px">a</td><td>b</td></tr></table>
        <div class="rows-table"><div class="row" style="display:flex;height:40px"><span role="cell">0</span><span role="cell">x</span></div>
        <div class="row" style="display:flex;height:40px"><span role="cell">10000</span><span role="cell">y</span></div></div></body>`);
      const found = await viewportProblems(page, { tables: [TABLES.rows, TABLES.runs] }, [1280]);
      expect(found[1280]).toEqual([
        expect.stringMatching(/^rows table row 1: column 1 starts at \d+ px, in the first row at \d+ px$/),
        'the page is 1600 px wide in a 1280 px window: it scrolls sideways',
        expect.stringMatching(/^td "b" reaches \d+ px, past the 1280 px window, and nothing scrolls to it$/),
      ]);
    });
  });
});
