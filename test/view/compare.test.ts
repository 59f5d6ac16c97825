import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResult, EvalComparison } from '../../src/compare/index.js';
import type { RunSummary } from '../../src/experiment/types.js';
import { detectableCell } from '../../src/report/compare/eval-cells.js';
import { formatP, pointsInterval, signedPoints, valueWithInterval } from '../../src/report/compare/format-numbers.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { SCREENSHOTS, launchBrowser } from './browser.js';
import { exampleProject } from './example-project.js';
import { row, writeRun } from './synthetic-run.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null; querySelectorAll(selector: string): { length: number } };

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let base: string;
let head: string;
let expected: CompareResult;
const problems: string[] = [];

const cli = (args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: project.dir, env: {}, timeoutMs: 60_000 });

/** What the CLI's table shows for an eval, from the json's numbers, by the CLI's own formatting code. */
function cliCells(e: EvalComparison): Record<string, string> {
  const verdict = e.kind === 'verdict';
  const diff = verdict ? e.passRate : e.score;
  return {
    base: verdict ? valueWithInterval(e.base.passRate, e.base.passRateCi95) : valueWithInterval(e.base.meanScore, e.base.meanScoreCi95),
    head: verdict ? valueWithInterval(e.head.passRate, e.head.passRateCi95) : valueWithInterval(e.head.meanScore, e.head.meanScoreCi95),
    difference: diff ? `${signedPoints(diff.estimate)} pts ${pointsInterval(diff.ci95)}` : 'n/a',
    bootstrap: pointsInterval(diff?.bootstrapCi95),
    'p-holm': formatP(diff?.pValueHolm),
    p: formatP(diff?.pValue),
    counts: `${e.improved} / ${e.regressed} / ${e.unchanged}`,
    detectable: detectableCell(e),
    'eval-gate': e.gate?.outcome ?? 'n/a',
  };
}

/** The compare page's numbers, cell by cell, checked against `agentmark compare --format json`. */
async function expectNumbersOf(result: CompareResult): Promise<void> {
  await page.waitForSelector('table.compare-evals');
  for (const e of result.evals) {
    const row = page.locator(`table.compare-evals tr[data-eval="${e.name}"]`);
    const shown: Record<string, string> = {};
    for (const cell of ['base', 'head', 'bootstrap', 'p-holm', 'p', 'counts', 'detectable', 'eval-gate']) shown[cell] = (await row.locator(`td.${cell}`).textContent()) ?? '';
    shown['difference'] = (await row.locator('td.difference .num').textContent()) ?? '';
    expect(shown, e.name).toEqual(cliCells(e));
  }
  expect(await page.textContent('[data-testid=paired]')).toBe(String(result.pairing.paired));
  expect(await page.textContent('[data-testid=regressed-count]')).toBe(String(result.changedRows.regressed));
  expect(await page.textContent('[data-testid=improved-count]')).toBe(String(result.changedRows.improved));
  const mark = { regressed: '✘', inconclusive: '?', 'no regression': '✔' }[result.gate.outcome];
  expect(await page.textContent('[data-testid=gate]')).toBe(`regression check: ${mark} ${result.gate.message}`);
  const pairs = await page.locator('.changed-row').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-change'), Number(el.getAttribute('data-head-index')), el.querySelector('.base-output')?.textContent, el.querySelector('.head-output')?.textContent]),
  );
  expect(pairs).toEqual(result.changedRows.rows.map((r) => [r.change, r.headIndex, r.baseOutput, r.headOutput]));
}

describe('the compare page in a real browser', () => {
  beforeAll(async () => {
    project = await exampleProject();
    // Two prompts over the same dataset, as the README's walkthrough: v1 first (the base), then v2 (the head).
    for (const prompt of ['prompts/classify-intent.prompt.mdx', 'prompts/classify-intent-v2.prompt.mdx']) {
      const run = await cli(['run-experiment', prompt, '--format', 'json', '-q']);
      expect(run.stderr).not.toMatch(/^error:/m);
    }
    const runs = JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string }>;
    [head, base] = runs.map((r) => r.id) as [string, string];
    expected = JSON.parse((await cli(['compare', base, head, '--format', 'json'])).stdout) as CompareResult;
    await mkdir(SCREENSHOTS, { recursive: true });
    server = await startViewServer({ projectRoot: project.dir, port: 0 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await project?.cleanup();
  });

  it('opens from two runs ticked on the runs page and shows exactly the numbers of compare --format json', async () => {
    // The example's two classify prompts differ on three rows: two regressed, one improved.
    expect(expected.changedRows).toMatchObject({ regressed: 2, improved: 1, omitted: 0 });
    await page.goto(server.url);
    await page.waitForSelector('table.runs tbody tr');
    expect(await page.isDisabled('[data-testid=open-compare]')).toBe(true);
    // Ticked newest first: the older run is still the base.
    await page.check(`input[aria-label="compare ${head}"]`);
    await page.check(`input[aria-label="compare ${base}"]`);
    await page.click('[data-testid=open-compare]');
    await page.waitForSelector('.changed-row');
    expect(page.url()).toBe(`${server.url}#/compare/${base}/${head}`);
    await expectNumbersOf(expected);
    // Independent reference for one cell: 11 of 12 rows pass exact_intent in v1 and 10 of 12 in
    // v2, so the difference is −1/12 = −8.3 points; known_intent 11 → 12 of 12 is +8.3.
    expect(await page.textContent('tr[data-eval="exact_intent"] td.difference .num')).toMatch(/^−8\.3 pts /);
    expect(await page.textContent('tr[data-eval="known_intent"] td.difference .num')).toMatch(/^\+8\.3 pts /);
    await page.screenshot({ path: join(SCREENSHOTS, 'compare.png'), fullPage: true });
  }, 60_000);

  it('shows each changed row\'s outputs side by side with a word diff and both reasons, and filters to regressions', async () => {
    const regressed = expected.changedRows.rows.find((r) => r.change === 'regressed');
    expect(regressed).toBeDefined();
    const article = page.locator(`.changed-row[data-change=regressed][data-head-index="${regressed?.headIndex}"]`);
    expect(regressed?.baseOutput).not.toBe(regressed?.headOutput);
    expect(await article.locator('.diff del').allTextContents()).toEqual([regressed?.baseOutput]);
    expect(await article.locator('.diff ins').allTextContents()).toEqual([regressed?.headOutput]);
    for (const [name, e] of Object.entries(regressed?.evals ?? {})) {
      expect(await article.locator(`tr[data-eval="${name}"] .reason`).allTextContents()).toEqual([e.base?.reason ?? '', e.head?.reason ?? '']);
    }
    await page.selectOption('select[aria-label="changed rows"]', 'regressed');
    expect(await page.locator('.changed-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-change')))).toEqual(['regressed', 'regressed']);
    await article.locator('section[aria-label="head output"] a').click();
    await page.waitForSelector('.row-page .message');
    expect(page.url()).toBe(`${server.url}#/runs/${head}/rows/${regressed?.headIndex}`);
  });

  it('says why when a run cannot be compared', async () => {
    await page.goto(`${server.url}#/compare/${base}/20261130-000000.000-000000`);
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toBe('not found');
    // The browser logs the 404 response itself as a console error: expected here, and only here.
    expect(problems.splice(0)).toEqual([expect.stringContaining('404')]);
  });

  it('compare --format html, opened from file://, shows the same numbers and the rows of both runs', async () => {
    const made = await cli(['compare', base, head, '--format', 'html', '-o', 'compare.html']);
    expect(made.code).toBe(0);
    expect(made.stdout).toBe('');
    const offline: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) offline.push(request.url());
    });
    await page.goto(pathToFileURL(join(project.dir, 'compare.html')).href);
    await page.waitForSelector('.changed-row');
    await expectNumbersOf(expected);
    const first = expected.changedRows.rows[0];
    await page.locator('.changed-row').first().locator('section[aria-label="base output"] a').click();
    await page.waitForSelector('.row-page .message');
    expect(await page.textContent('[data-testid=row-index]')).toBe(String(first?.baseIndex));
    await page.click('nav a');
    await page.waitForSelector('.row[data-index]');
    expect(await page.textContent('.prompt-name')).toBe('classify-intent');
    expect(offline).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('runs show --format html writes the run\'s report, with the numbers of its json report', async () => {
    const made = await cli(['runs', 'show', head, '--format', 'html', '-o', 'run.html']);
    expect(made.code).toBe(1);
    const { summary } = JSON.parse((await cli(['runs', 'show', head, '--format', 'json'])).stdout) as { summary: RunSummary };
    expect((await readFile(join(project.dir, 'run.html'), 'utf8')).startsWith('<!doctype html>')).toBe(true);
    await page.goto(pathToFileURL(join(project.dir, 'run.html')).href);
    await page.waitForSelector('.row[data-index]');
    expect(await page.textContent('[data-testid=rows-run]')).toBe(String(summary.rows));
    for (const e of summary.evals) {
      expect(await page.locator(`.eval-card[data-eval="${e.name}"] .pass-rate`).textContent()).toBe(`${((e.passRate ?? NaN) * 100).toFixed(1)}%`);
    }
    // the rows are drawn with their text (the input cell shows the input's message, not "…")
    await page.waitForFunction(() => !['…', undefined].includes(document.querySelector('.row[data-index="0"] .input-cell')?.textContent ?? undefined));
    expect(problems).toEqual([]);
  }, 60_000);

  it('after a rerun, the run page marks the rows that flipped against the previous run of the prompt, live', async () => {
    const verdict = (passed: boolean) => ({ evals: { correct: { passed, score: passed ? 1 : 0, normalized: passed ? 1 : 0 } } });
    const first = '20261130-200000.000-f11111';
    const rerun = '20261130-200100.000-f22222';
    await writeRun(project.dir, { id: first, evalNames: ['correct'], rows: [row(0, verdict(true)), row(1, verdict(true)), row(2, verdict(false)), row(3, verdict(false))] });
    await page.goto(`${server.url}#/runs/${first}`);
    await page.waitForSelector('.row[data-index]');
    expect(await page.locator('.newer').count()).toBe(0);
    // The rerun starts while the first run's page is open (as `watch --view` does): the page points at it.
    const handle = await writeRun(project.dir, { id: rerun, evalNames: ['correct'], rows: [row(0, verdict(true)), row(1, verdict(false)), row(2, verdict(true))], keepOpen: true });
    try {
      // Playwright's own 30 s, not 5 s: the server looks for new runs every second and a loaded
      // machine (the browser, the server and another test file on two cores) can take seconds more.
      await page.waitForSelector('.newer a');
      await page.click('.newer a');
      await page.waitForSelector('[data-testid=flips]');
      expect(page.url()).toBe(`${server.url}#/runs/${rerun}`);
      const counts = async (): Promise<string[]> => Promise.all(['flip-count', 'to-fail', 'to-pass'].map(async (t) => (await page.textContent(`[data-testid=${t}]`)) ?? ''));
      expect(await counts()).toEqual(['2', '1', '1']);
      // The line reads as a sentence: htm drops whitespace holding a line break, so it was "fail,1 fail → pass.show them".
      expect(((await page.textContent('[data-testid=flips]')) ?? '').replace(/\s+/g, ' ').trim()).toBe(
        `2 rows flipped since the previous run of this prompt (${first}): 1 pass → fail, 1 fail → pass. show them compare the two runs`,
      );
      expect(await page.locator('.row[data-index="1"] .flip-fail').getAttribute('aria-label')).toBe('flipped from pass to fail');
      expect(await page.locator('.row[data-index="2"] .flip-pass').getAttribute('aria-label')).toBe('flipped from fail to pass');
      expect(await page.locator('.row[data-index="0"] .flip').count()).toBe(0);
      // A row of the rerun arrives: it is compared as it lands.
      handle.append(row(3, verdict(true)));
      await page.waitForFunction(() => document.querySelector('[data-testid=flip-count]')?.textContent === '3');
      expect(await counts()).toEqual(['3', '1', '2']);
      await page.selectOption('select[aria-label=show]', 'flipped');
      await page.waitForFunction(() => document.querySelector('[data-testid=shown-count]')?.textContent === '3');
      expect(await page.locator('.row[data-index]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-index')))).toEqual(['1', '2', '3']);
      expect(await page.getAttribute('[data-testid=flips] a[href^="#/compare/"]', 'href')).toBe(`#/compare/${first}/${rerun}`);
    } finally {
      await handle.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
