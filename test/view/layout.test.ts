import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAVICON } from '../../src/view/favicon.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { launchBrowser } from './browser.js';
import { exampleProject } from './example-project.js';
import { TABLES, atWidth, chartShapes, outsideWindow, viewportProblems, type LayoutCheck } from './geometry.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let base: string;
let head: string;
let support: string;
let chat: string;
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
    for (const prompt of [V1, V2, V1, 'prompts/support-reply.prompt.mdx', 'prompts/support-chat.prompt.mdx']) {
      const run = await cli(['run-experiment', prompt, '--format', 'json', '-q']);
      expect(run.stderr).not.toMatch(/^error:/m);
    }
    const runs = (JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string; prompt: string }>).reverse();
    base = runs.find((r) => r.prompt === V1)?.id as string;
    head = runs.find((r) => r.prompt === V2)?.id as string;
    support = runs.find((r) => r.prompt === 'prompts/support-reply.prompt.mdx')?.id as string;
    chat = runs.find((r) => r.prompt === 'prompts/support-chat.prompt.mdx')?.id as string;
    // A reviewer, so the review queue has its label controls.
    server = await startViewServer({ projectRoot: project.dir, port: 0, reviewer: 'ana' });
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

  describe('at 1280 and 390 px, the verdicts and the controls a reviewer needs are on screen (no box to scroll sideways)', () => {
    const onScreen = async (selector: string): Promise<Record<number, string[]>> => ({
      1280: await atWidth(page, 1280, () => outsideWindow(page, selector)),
      390: await atWidth(page, 390, () => outsideWindow(page, selector)),
    });

    it('the run page: every verdict of a five-eval run, as stacked cards on a phone', async () => {
      await page.goto(`${server.url}#/runs/${support}`);
      // (its outputs are long enough to end in "…" in the table: wait for the input instead)
      await page.waitForFunction(() => (document.querySelector('.row[data-index="0"] .input-cell')?.textContent ?? '…') !== '…');
      expect(await page.locator('.row[data-index="0"] .verdict-cell').count()).toBe(5);
      expect(await onScreen('.row .verdict-cell .chip')).toEqual(NONE);
      const narrow = await atWidth(page, 390, async () => ({
        cards: await page.locator('.rows-table.cards').count(),
        // each card names the eval beside its verdict
        names: await page.locator('.row[data-index="0"] .cell-eval').allTextContents(),
        problems: await outsideWindow(page, '.row .row-top [role=cell]'),
      }));
      expect(narrow).toEqual({ cards: 1, names: ['mentions_next_step', 'no_blame', 'reply_length', 'tone', 'fast_enough', 'latency'], problems: [] });
    });

    it("the input column shows the input's message, not its first JSON key; the full JSON on hover and on the row page", async () => {
      const cell = page.locator('.row[data-index="0"] .input-cell');
      const input = { customer: { name: 'ada lovelace', tier: 'gold' }, subject: 'Damaged package', message: 'My order arrived with a cracked screen.', items: [{ name: 'Phone X', qty: 1 }] };
      expect(await cell.textContent()).toBe('My order arrived with a cracked screen.');
      expect(await cell.getAttribute('title')).toBe(JSON.stringify(input, null, 2));
      await page.goto(`${server.url}#/runs/${support}/rows/0`);
      expect(await page.textContent('.row-page pre.input')).toBe(JSON.stringify(input, null, 2));
    });

    it("the review queue: its label controls", async () => {
      await page.goto(`${server.url}#/runs/${support}/review`);
      await page.waitForSelector('.queue-row .label-controls');
      expect(await viewportProblems(page, { tables: [TABLES.labels] })).toEqual(NONE);
      expect(await onScreen('.queue-row .label-controls button, .queue-row .label-controls select, .queue-row .label-controls input')).toEqual(NONE);
      expect(await onScreen('.queue-row pre.output, .queue-row .expected')).toEqual(NONE);
    });

    it('the compare page: each eval\'s figures and each changed row\'s verdicts', async () => {
      await page.goto(`${server.url}#/compare/${base}/${head}`);
      await page.waitForSelector('.changed-row');
      expect(await onScreen('table.compare-evals td')).toEqual(NONE);
      expect(await onScreen('.changed-row .base-verdict .chip, .changed-row .head-verdict .chip, .changed-row pre')).toEqual(NONE);
    });

    it("the results grid (a single-file page): every run's verdicts on screen, one card a row on a phone", async () => {
      const ids = JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string; prompt: string }>;
      const intents = ids.filter((r) => r.prompt.includes('classify-intent')).map((r) => r.id).slice(0, 3);
      expect(intents).toHaveLength(3);
      expect((await cli(['compare', ...intents, '-o', 'grid.html'])).code).toBeLessThan(2);
      await page.goto(pathToFileURL(join(project.dir, 'grid.html')).href);
      await page.waitForSelector('table.grid tbody tr');
      expect(await onScreen('table.grid .grid-chip')).toEqual(NONE);
      // each card names the run above its output
      const labels = await atWidth(page, 390, () => page.locator('table.grid tbody tr[data-index="0"] td.grid-cell').evaluateAll((cells) => cells.map((cell) => (globalThis as unknown as { getComputedStyle: (el: unknown, pseudo: string) => { content: string } }).getComputedStyle(cell, '::before').content)));
      expect(labels).toHaveLength(3);
      for (const label of labels) expect(label).toMatch(/^"classify-intent/);
    });

    it('a conversation\'s row page: a chat, the user on the right, the assistant on the left, simulated turns marked, each turn verdict on screen', async () => {
      await page.goto(`${server.url}#/runs/${chat}/rows/0`);
      await page.waitForSelector('.transcript .turn');
      expect(await viewportProblems(page, ROW)).toEqual(NONE);
      expect(await onScreen('.turn .turn-text, .turn-evals .chip')).toEqual(NONE);
      for (const width of [1280, 390]) {
        const sides = await atWidth(page, width, () =>
          page.locator('.turn').evaluateAll((turns) =>
            turns.map((turn) => {
              const box = turn.getBoundingClientRect();
              const list = turn.parentElement?.getBoundingClientRect();
              if (list === undefined) return 'no list';
              const side = Math.abs(box.right - list.right) < 1 ? 'right' : Math.abs(box.left - list.left) < 1 ? 'left' : 'middle';
              return `${turn.classList.contains('turn-user') ? 'user' : 'assistant'} ${side} ${turn.querySelector('.turn-source')?.textContent ?? ''} ${turn.querySelectorAll('.turn-evals .chip').length}`;
            }),
          ),
        );
        expect(sides).toEqual(['user right simulated 0', 'assistant left  1', 'user right simulated 0', 'assistant left  1']);
      }
      expect(await page.textContent('[data-testid="ended-by"]')).toBe('2 turns, ended by the stop text');
    });

    it('the row page: the evals table has no tall empty rows, its verdicts on screen', async () => {
      await page.goto(`${server.url}#/runs/${support}/rows/1`);
      // Only the hash changes: the previous test's row page (another run's row 0, with an evals
      // table of its own) stays until this one replaces it, so wait for this row's heading too.
      await page.waitForFunction(() => document.querySelector('[data-testid="row-index"]')?.textContent === '1');
      await page.waitForSelector('.row-page table.evals .chip');
      expect(await onScreen('table.evals .chip')).toEqual(NONE);
      // A row is as tall as its text needs: a line for the eval, its verdict and score (two when a
      // long name wraps), then its reason at no fewer than 30 characters a line (22 px each).
      const tall = await atWidth(page, 390, () =>
        page.locator('table.evals tbody tr').evaluateAll((rows) =>
          rows
            .map((row) => ({ height: row.getBoundingClientRect().height, reason: row.querySelector('.reason')?.textContent ?? '' }))
            .filter(({ height, reason }) => height > 2 * 26 + 16 + Math.ceil(reason.length / 30) * 22)
            .map(({ height, reason }) => `${Math.round(height)} px for "${reason.slice(0, 30)}"`),
        ),
      );
      expect(tall).toEqual([]);
    });

    it("the row page: no column header of the evals table is broken inside a word (\"verdic t\") at 1280 and 390 px", async () => {
      await page.goto(`${server.url}#/runs/${support}/rows/1`);
      await page.waitForSelector('.row-page table.evals');
      // A header of one word broken across lines is taller than one line of its font.
      const broken = async (): Promise<string[]> =>
        page.locator('table.evals thead th').evaluateAll((cells) =>
          cells
            .filter((cell) => cell.getBoundingClientRect().height > 0 && !(cell.textContent ?? '').includes(' '))
            .filter((cell) => {
              const range = cell.ownerDocument.createRange();
              range.selectNodeContents(cell);
              return range.getClientRects().length > 1;
            })
            .map((cell) => cell.textContent ?? ''),
        );
      expect({ 1280: await atWidth(page, 1280, broken), 390: await atWidth(page, 390, broken) }).toEqual(NONE);
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
      expect(titles).toEqual([expect.stringContaining(`run ${base}`), expect.stringMatching(/^exact_intent 91\.7% \(95% interval 61\.5%–99\.8%\) · run \d{8}-/)]);
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
