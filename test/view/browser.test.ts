import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/experiment/types.js';
import type { ReportRow } from '../../src/report/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { SCREENSHOTS, launchBrowser } from './browser.js';
import { HOSTILE, exampleProject } from './example-project.js';
import { row, writeRun } from './synthetic-run.js';

/** The browser globals that callbacks given to page.evaluate / waitForFunction use (they run in the page). */
interface PageElement {
  textContent: string | null;
  tagName: string;
  getAttribute(name: string): string | null;
}
declare const document: { querySelector(selector: string): PageElement | null; activeElement: PageElement | null };


interface JsonReport {
  run: { runId: string; promptPath: string };
  summary: RunSummary;
  rows: ReportRow[];
}

const XSS_RUN = '20261130-120000.000-dddddd';
const BIG_RUN = '20261130-130000.000-eeeeee';
const LIVE_RUN = '20261130-140000.000-ffffff';
const BIG_ROWS = 100_000;

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let reports: JsonReport[];
const dialogs: string[] = [];
const pageErrors: string[] = [];

const pct = (value: number | undefined): string => (value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);

async function openRun(id: string): Promise<void> {
  await page.goto(`${server.url}#/runs/${id}`);
  await page.waitForSelector('.row[data-index]');
}

describe('the viewer in a real browser', () => {
  beforeAll(async () => {
    project = await exampleProject();
    const result = await runCli(['run-experiment', 'prompts', '--format', 'json', '-o', 'report.json', '-q'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    expect(result.stderr).not.toMatch(/^error:/m);
    reports = JSON.parse(await readFile(join(project.dir, 'report.json'), 'utf8')) as JsonReport[];
    await writeRun(project.dir, {
      id: XSS_RUN,
      promptName: HOSTILE.img,
      evalNames: ['safe'],
      rows: [
        row(0, { output: HOSTILE.img, input: { question: HOSTILE.input }, evals: { safe: { passed: false, score: 0, normalized: 0, reason: HOSTILE.script } } }),
        row(1, { output: HOSTILE.script, expectedOutput: HOSTILE.img, evals: { safe: { passed: true, score: 1, normalized: 1, label: HOSTILE.img } } }),
      ],
    });
    await mkdir(SCREENSHOTS, { recursive: true });
    server = await startViewServer({ projectRoot: project.dir, port: 0 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await project?.cleanup();
  });

  // Each test answers for the page errors its own visits raised: a last "no page errors" test
  // passed vacuously when run alone, and blamed no one when it failed.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('lists the example\'s runs on the runs page, newest first', async () => {
    await page.goto(server.url);
    await page.waitForSelector('table.runs tbody tr');
    const shown = await page.locator('table.runs tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    const example = reports.map((r) => r.run.runId);
    // one run per example prompt (the folder holds seven)
    expect(example).toHaveLength(7);
    for (const id of example) expect(shown).toContain(id);
    expect(shown).toEqual([...shown].sort().reverse());
    await page.screenshot({ path: join(SCREENSHOTS, 'runs.png'), fullPage: true });
  });

  it('shows a run\'s counts and intervals exactly as the json report has them', async () => {
    const classify = reports.find((r) => r.run.promptPath.endsWith('classify-intent.prompt.mdx')) as JsonReport;
    await openRun(classify.run.runId);
    expect(await page.textContent('[data-testid=rows-run]')).toBe(String(classify.summary.rows));
    expect(await page.textContent('[data-testid=rows-errored]')).toBe(String(classify.summary.errored));
    for (const e of classify.summary.evals) {
      const card = page.locator(`.eval-card[data-eval="${e.name}"]`);
      expect(await card.locator('.pass-rate').textContent()).toBe(pct(e.passRate));
      expect(await card.locator('.ci-low').textContent()).toBe(pct(e.passRateCi95?.[0]));
      expect(await card.locator('.ci-high').textContent()).toBe(pct(e.passRateCi95?.[1]));
    }
    // Independent reference: the 95% Clopper-Pearson interval of 11 passes in 12, from scipy:
    // beta.ppf(0.025, 11, 2), beta.ppf(0.975, 12, 1) = [0.6152, 0.9979].
    const exact = page.locator('.eval-card[data-eval="exact_intent"]');
    expect([await exact.locator('.pass-rate').textContent(), await exact.locator('.ci-low').textContent(), await exact.locator('.ci-high').textContent()]).toEqual([
      '91.7%',
      '61.5%',
      '99.8%',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'run.png'), fullPage: true });
  });

  it("shows a run's judge spend apart from its totals, as the summary has it", async () => {
    const id = '20261130-100000.000-bbbbbb';
    const judge = (cached: number) => ({ calls: 1, cached, usage: { inputTokens: cached ? 0 : 400, outputTokens: cached ? 0 : 20, totalTokens: cached ? 0 : 420 }, costUsd: cached ? 0 : 0.00009, latencyMs: cached ? 0 : 300 });
    await writeRun(project.dir, {
      id,
      evalNames: ['polite'],
      rows: [0, 1, 2].map((i) => row(i, { usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 }, costUsd: 0.0000027, judge: judge(i === 2 ? 1 : 0), evals: { polite: { passed: true } } })),
    });
    await openRun(id);
    expect(await page.textContent('[data-testid=judge-spend]')).toBe('3 calls (1 cached), 840 tokens, $0.000180');
  });

  it('filters to failed rows, and opens a row with its messages and eval reasons', async () => {
    const classify = reports.find((r) => r.run.promptPath.endsWith('classify-intent.prompt.mdx')) as JsonReport;
    const failed = classify.rows.filter((r) => r.error !== null || Object.values(r.evals).some((e) => e.passed === false || e.error !== null));
    await openRun(classify.run.runId);
    await page.selectOption('select[aria-label=show]', 'failed');
    await page.waitForFunction((n) => document.querySelector('[data-testid=shown-count]')?.textContent === String(n), failed.length);
    const indexes = await page.locator('.row[data-index]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-index'))));
    expect(indexes).toEqual(failed.map((r) => r.index));

    const target = failed[0] as ReportRow;
    await page.click(`.row[data-index="${target.index}"] a`);
    await page.waitForSelector('.row-page .message');
    const messages = await page.locator('.message').evaluateAll((els) => els.map((el) => [el.querySelector('h4')?.textContent, el.querySelector('pre')?.textContent]));
    expect(messages.map(([role]) => role)).toEqual(['system', 'user']);
    expect(messages[1]?.[1]).toBe(String(target.input['message']));
    for (const [name, result] of Object.entries(target.evals)) {
      expect(await page.locator(`tr[data-eval="${name}"] .reason`).textContent()).toBe(result.reason);
    }
    expect(await page.textContent('[data-testid=reproduce]')).toBe(`agentmark run-prompt prompts/classify-intent.prompt.mdx --row ${target.index} --model openai/gpt-4o-mini`);
    await page.screenshot({ path: join(SCREENSHOTS, 'row.png'), fullPage: true });
  });

  it('moves with j / k, opens with Enter, searches with /, goes back with Esc', async () => {
    const classify = reports.find((r) => r.run.promptPath.endsWith('classify-intent.prompt.mdx')) as JsonReport;
    await openRun(classify.run.runId);
    const selected = (): Promise<string | null> => page.locator('.row[aria-selected=true]').getAttribute('data-index');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await selected()).toBe('2');
    await page.keyboard.press('k');
    expect(await selected()).toBe('1');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.row-page');
    expect(await page.textContent('[data-testid=row-index]')).toBe('1');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.row[data-index]');
    expect(page.url()).toBe(`${server.url}#/runs/${classify.run.runId}`);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('search rows');
    await page.keyboard.type('parcel');
    await page.waitForFunction(() => document.querySelector('[data-testid=shown-count]')?.textContent === '1');
    expect(await page.locator('.row[data-index]').getAttribute('data-index')).toBe('1');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
    await page.keyboard.press('Escape');
    await page.waitForSelector('table.runs');
  });

  it('shows hostile rows as literal text in the table and on the row page', async () => {
    await openRun(XSS_RUN);
    // Both rows drawn with their text loaded (a row not drawn yet has no text to wait on).
    await page.waitForFunction(() =>
      [0, 1].every((index) => {
        const text = document.querySelector(`.row[data-index="${index}"]`)?.textContent;
        return text !== undefined && text !== null && text !== '' && !text.includes('…');
      }),
    );
    expect(await page.locator('.row[data-index="0"] .output-cell').textContent()).toBe(HOSTILE.img);
    expect(await page.locator('.row[data-index="1"] .output-cell').textContent()).toBe(HOSTILE.script);
    expect(await page.textContent('.prompt-name')).toBe(HOSTILE.img);
    await page.click('.row[data-index="0"] a');
    await page.waitForSelector('.row-page [data-testid=output]');
    expect(await page.textContent('[data-testid=output]')).toBe(HOSTILE.img);
    expect(await page.textContent('tr[data-eval="safe"] .reason')).toBe(HOSTILE.script);
    expect(await page.textContent('pre.input')).toContain(HOSTILE.input);
    await page.goto(`${server.url}#/runs/${XSS_RUN}/rows/1`);
    // Row 0's page has a diff too: wait for row 1's output, not for a selector both pages match.
    await page.waitForFunction((text) => document.querySelector('[data-testid=output]')?.textContent === text, HOSTILE.script);
    await page.waitForSelector('.row-page .diff');
    expect(await page.textContent('[data-testid=output]')).toBe(HOSTILE.script);
    expect(await page.locator('img, svg[onload], script:not([src])').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  // How fast these happen is measured in the bench (scenarios viewer-open and viewer-live, with
  // targets of 2 s and 1 s); a wall-clock bound here would fail on a loaded machine.
  it(`opens a ${BIG_ROWS.toLocaleString('en')}-row run and scrolls to its end with few rows in the page`, async () => {
    await writeRun(project.dir, {
      id: BIG_RUN,
      evalNames: ['correct', 'short'],
      rows: (function* () {
        for (let i = 0; i < BIG_ROWS; i++) {
          const pass = i % 7 !== 0;
          yield row(i, { evals: { correct: { passed: pass, score: pass ? 1 : 0, normalized: pass ? 1 : 0 }, short: { passed: true, score: 1, normalized: 1 } } });
        }
      })(),
    });
    await page.goto(`${server.url}#/runs/${BIG_RUN}`);
    await page.waitForFunction((n) => document.querySelector('[data-testid=shown-count]')?.textContent === String(n), BIG_ROWS);
    await page.waitForFunction(() => document.querySelector('.row[data-index="0"]')?.textContent?.includes('question 0'));
    await page.locator('[data-testid=rows-scroll]').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForFunction(() => document.querySelector('.row[data-index="99999"]')?.textContent?.includes('question 99999'));
    expect(await page.locator('.row[data-index]').count()).toBeLessThan(80);
  }, 60_000);

  it('shows a row of a running run once the run writes it', async () => {
    const handle = await writeRun(project.dir, { id: LIVE_RUN, evalNames: ['correct'], rows: [row(0, { evals: { correct: { passed: true } } })], keepOpen: true });
    try {
      await openRun(LIVE_RUN);
      handle.append(row(1, { output: 'a live answer', evals: { correct: { passed: false } } }));
      await page.waitForFunction(() => document.querySelector('.row[data-index="1"]')?.textContent?.includes('a live answer'));
      await page.waitForFunction(() => document.querySelector('[data-testid=rows-run]')?.textContent === '2');
    } finally {
      await handle.close();
    }
  });
});
