import { createServer, type Server } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { agreementOfRun, ANNOTATIONS_FILE, appendAnnotations, labelLine } from '../../src/review/index.js';
import type { Verdict } from '../../src/scoring/agreement/index.js';
import { RunStore, openRunFolder } from '../../src/store/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { SCREENSHOTS, launchBrowser } from './browser.js';
import { TABLES, viewportProblems } from './geometry.js';
import { EVAL_NAMES, REVIEW_RUN, reviewProject, reviewRows } from './review-run.js';
import { writeRun } from './synthetic-run.js';

/** The few DOM calls the other origin's page makes (it runs in the page). */
interface EvilElement {
  appendChild(child: EvilElement): void;
  submit(): void;
  method: string;
  action: string;
  enctype: string;
  name: string;
  value: string;
}
interface EvilDocument {
  createElement(tag: string): EvilElement;
  body: EvilElement;
}

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

const { labels: LABELS, confusion: CONFUSION } = TABLES;
/** The same rows and outputs, run again later: labels carry over. */
const RERUN = '20261201-110000.000-bbbbbb';

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let readOnly: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
const pageErrors: string[] = [];
const annotations = (id = REVIEW_RUN): Promise<string> => readFile(join(project.dir, '.agentmark', 'runs', id, ANNOTATIONS_FILE), 'utf8').catch(() => '');
const scores = async (): Promise<Record<string, never>> => JSON.parse(await readFile(join(project.dir, 'agentmark.json'), 'utf8')).scores;

/**
 * The labels the queue test ends with (helpful: row 0 fail, row 1 pass, row 2 fail, by ana),
 * for the tests that read them: each writes what it needs, so it stands alone. Written after
 * the tests that give them, they change nothing (the last line per reviewer, row and eval wins).
 */
const QUEUE_LABELS: Array<[number, string, Verdict, string]> = [
  [0, 'helpful', false, 'ana'],
  [1, 'helpful', true, 'ana'],
  [2, 'helpful', false, 'ana'],
];

async function labelled(labels: ReadonlyArray<[number, string, Verdict, string]>): Promise<void> {
  const rows = reviewRows();
  const schemas = await scores();
  const lines = labels.map(([index, name, value, reviewer]) => labelLine({ row: rows[index] as RowResult, eval: name, value, reviewer, at: '2026-12-01T12:00:00.000Z' }, schemas));
  await appendAnnotations(join(project.dir, '.agentmark', 'runs', REVIEW_RUN), lines);
}

async function textIs(selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, t]) => document.querySelector(s as string)?.textContent === t, [selector, text]);
}

describe('reviewing in the viewer, in a real browser', () => {
  beforeAll(async () => {
    project = await reviewProject();
    server = await startViewServer({ projectRoot: project.dir, port: 0, reviewer: 'ana' });
    readOnly = await startViewServer({ projectRoot: project.dir, port: 0, readOnly: true });
    browser = await launchBrowser();
    await mkdir(SCREENSHOTS, { recursive: true });
    page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await readOnly?.close();
    await project?.cleanup();
  });

  // Each test answers for the page errors its own visits raised: a last "no page errors" test
  // passed vacuously when run alone, and blamed no one when it failed.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('labels three rows with the keyboard, the progress and the agreement changing with each; undoes with u, takes a note with n', async () => {
    await page.goto(`${server.url}#/runs/${REVIEW_RUN}/review?filter=judged&eval=helpful`);
    await textIs('[data-testid=queue-size]', '8');
    await textIs('[data-testid=queue-row]', '0');
    expect(await page.textContent('[data-testid=reviewed]')).toBe('0');
    expect(await page.locator('.agreement-eval[data-eval=helpful]').count()).toBe(0);
    // row 0: the judge said pass, the reviewer fail; rows 1 and 2: pass, as the judge said
    await page.keyboard.press('0');
    await textIs('[data-testid=reviewed]', '1');
    await textIs('.agreement-eval[data-eval=helpful] [data-testid=rows-behind]', '1');
    await page.keyboard.press('j');
    await textIs('[data-testid=queue-row]', '1');
    await page.keyboard.press('1');
    await textIs('[data-testid=reviewed]', '2');
    await page.keyboard.press('j');
    await textIs('[data-testid=queue-row]', '2');
    await page.keyboard.press('1');
    await textIs('[data-testid=reviewed]', '3');
    await textIs('.agreement-eval[data-eval=helpful] [data-testid=rows-behind]', '3');
    expect(await page.textContent('[data-testid=progress]')).toBe('by you (ana): 3 of 8 · by anyone: 3 of 8 labelled (helpful)');
    // the panel shows what agentmark agreement computes from the same labels
    const store = new RunStore(project.dir);
    const expected = (await agreementOfRun(await openRunFolder(store.runDir(REVIEW_RUN)), await scores(), store)).evals.find((e) => e.eval === 'helpful');
    expect(expected?.n).toBe(3);
    const panel = page.locator('.agreement-eval[data-eval=helpful]');
    expect(await panel.locator('[data-testid=percent]').textContent()).toBe(`${((expected?.percentAgreement.value ?? 0) * 100).toFixed(1)}%`);
    expect(await panel.locator('[data-testid=kappa]').textContent()).toBe(expected?.kappa.undefinedReason !== undefined ? 'undefined' : expected?.kappa.value === undefined ? 'n/a' : expected.kappa.value.toFixed(2));
    expect(await panel.locator('table.confusion tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent))).toEqual(['false01', 'true02']);
    const lines = (await annotations()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['index'], l['eval'], l['value'], l['reviewer']])).toEqual([
      [0, 'helpful', false, 'ana'],
      [1, 'helpful', true, 'ana'],
      [2, 'helpful', true, 'ana'],
    ]);
    expect(await viewportProblems(page, { tables: [LABELS, CONFUSION] })).toEqual({ 1280: [], 390: [] });
    await page.screenshot({ path: join(SCREENSHOTS, 'review.png'), fullPage: true });

    // u undoes by writing a new line; n takes a note
    await page.keyboard.press('u');
    await textIs('[data-testid=reviewed]', '2');
    const afterUndo = (await annotations()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(afterUndo).toHaveLength(4);
    expect(afterUndo[3]).toMatchObject({ index: 2, eval: 'helpful', cleared: true, reviewer: 'ana' });
    await page.keyboard.press('0');
    await textIs('[data-testid=reviewed]', '3');
    await page.keyboard.press('n');
    await page.keyboard.type('wrong city');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('tr.current .in-force .note')?.textContent === 'wrong city');
    expect((await annotations()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).at(-1)).toMatchObject({ index: 2, value: false, note: 'wrong city' });
  });

  it('scores a numeric eval with a digit, and refuses a digit outside its range', async () => {
    await page.goto(`${server.url}#/runs/${REVIEW_RUN}/review?eval=stars`);
    await textIs('[data-testid=queue-row]', '0');
    await page.keyboard.press('7');
    await textIs('[role=status]', 'stars scores from 0 to 5');
    await page.keyboard.press('4');
    await page.waitForFunction(() => document.querySelector('tr[data-eval=stars] .in-force .label-value')?.textContent === '4');
    expect(await page.locator('tr[data-eval=stars] .score-input').inputValue()).toBe('4');
    await textIs('.agreement-eval[data-eval=stars] [data-testid=rows-behind]', '1');
    expect((await annotations()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).at(-1)).toMatchObject({ index: 0, eval: 'stars', value: 4 });
  });

  it('opens the disagreements from the run page\'s agreement panel in one click', async () => {
    await labelled(QUEUE_LABELS);
    await page.goto(`${server.url}#/runs/${REVIEW_RUN}`);
    await page.waitForSelector('.agreement-eval[data-eval=helpful]');
    expect(await viewportProblems(page, { tables: [CONFUSION] })).toEqual({ 1280: [], 390: [] });
    await page.screenshot({ path: join(SCREENSHOTS, 'agreement.png'), fullPage: true });
    await page.click('.agreement-eval[data-eval=helpful] [data-testid=disagreements]');
    // rows 0 and 2: the reviewer said fail where the judge said pass
    await textIs('[data-testid=queue-size]', '2');
    expect(await page.textContent('[data-testid=queue-row]')).toBe('0');
    expect(await page.locator('select[aria-label="queue filter"]').inputValue()).toBe('disagree');
  });

  it('labels on the row page, and shows a label carried over from an earlier run with the same output', async () => {
    await page.goto(`${server.url}#/runs/${REVIEW_RUN}/rows/5`);
    await page.waitForSelector('table.labels-table tr[data-eval=tone]');
    await page.selectOption('tr[data-eval=tone] select', 'curt');
    await page.waitForFunction(() => document.querySelector('tr[data-eval=tone] .in-force .label-value')?.textContent === 'curt');
    await page.click('tr[data-eval=short] button:text("fail")');
    await page.waitForFunction(() => document.querySelector('tr[data-eval=short] .in-force .label-value')?.textContent === 'fail');
    expect(await viewportProblems(page, { tables: [LABELS] })).toEqual({ 1280: [], 390: [] });
    await page.screenshot({ path: join(SCREENSHOTS, 'row-labels.png'), fullPage: true });
    await writeRun(project.dir, { id: RERUN, evalNames: EVAL_NAMES, rows: reviewRows() });
    const manifest = join(project.dir, '.agentmark', 'runs', RERUN, 'manifest.json');
    const text = JSON.parse(await readFile(manifest, 'utf8')) as { startedAt: string };
    text.startedAt = '2026-11-30T11:00:00.000Z';
    await (await import('node:fs/promises')).writeFile(manifest, JSON.stringify(text));
    await page.goto(`${server.url}#/runs/${RERUN}/rows/5`);
    await page.waitForFunction(() => document.querySelector('tr[data-eval=tone] .carried')?.textContent !== undefined);
    expect(await page.textContent('tr[data-eval=tone] .carried')).toBe(`(label carried over from run ${REVIEW_RUN})`);
    expect(await annotations(RERUN)).toBe('');
  });

  it('asks once for a name when the viewer has none', async () => {
    const anonymous = await startViewServer({ projectRoot: project.dir, port: 0 });
    try {
      await page.goto(`${anonymous.url}#/runs/${REVIEW_RUN}/rows/6`);
      await page.waitForSelector('input[aria-label="reviewer name"]');
      expect(await page.locator('.label-controls').count()).toBe(0);
      await page.fill('input[aria-label="reviewer name"]', 'bo');
      await page.click('.ask-name button');
      await page.click('tr[data-eval=helpful] button:text("pass")');
      await page.waitForFunction(() => document.querySelector('tr[data-eval=helpful] .label-in-force[data-reviewer=bo] .label-value')?.textContent === 'pass');
      expect((await annotations()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).at(-1)).toMatchObject({ index: 6, eval: 'helpful', value: true, reviewer: 'bo' });
      await page.reload();
      await page.waitForSelector('tr[data-eval=helpful] .label-controls');
      expect(await page.locator('input[aria-label="reviewer name"]').count()).toBe(0);
    } finally {
      await anonymous.close();
    }
  });

  it('shows no label controls on a read-only viewer, and its labels in force', async () => {
    await labelled([...QUEUE_LABELS, [5, 'tone', 'curt', 'ana']]);
    await page.goto(`${readOnly.url}#/runs/${REVIEW_RUN}/rows/5`);
    await page.waitForSelector('table.labels-table tr[data-eval=tone] .label-value');
    expect(await page.locator('.label-controls, [data-testid=review-queue]').count()).toBe(0);
    await page.goto(`${readOnly.url}#/runs/${REVIEW_RUN}`);
    await page.waitForSelector('.agreement-eval');
    expect(await page.locator('[data-testid=disagreements], [data-testid=review-queue]').count()).toBe(0);
  });

  it('refuses a write from a page of another origin', async () => {
    const before = await annotations();
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>elsewhere</title><p>hi</p>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', () => resolve()));
    try {
      const evilPage = await browser.context.newPage();
      await evilPage.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      const target = `${server.url}api/runs/${REVIEW_RUN}/labels`;
      const body = JSON.stringify({ index: 3, repeat: 0, eval: 'helpful', value: true, reviewer: 'mallory' });
      // A form posted from there (no preflight, no token): the server sees another Origin and refuses.
      const [response] = await Promise.all([
        evilPage.waitForResponse(target),
        evilPage.evaluate(([url, data]) => {
          const doc = (globalThis as unknown as { document: EvilDocument }).document;
          const form = doc.createElement('form');
          form.method = 'POST';
          form.action = url as string;
          form.enctype = 'text/plain';
          const input = doc.createElement('input');
          input.name = (data as string).slice(0, -1);
          input.value = '}';
          form.appendChild(input);
          doc.body.appendChild(form);
          form.submit();
        }, [target, body]),
      ]);
      expect(response.status()).toBe(403);
      expect(await response.text()).toBe('{"error":"cross-origin write refused"}');
      await evilPage.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      // fetch: with the token header (were it known) the browser asks first, and the viewer allows no cross-origin write
      const preflighted = await evilPage.evaluate(
        ([url, data]) => fetch(url as string, { method: 'POST', headers: { 'content-type': 'application/json', 'x-agentmark-token': 'guess' }, body: data as string }).then((r) => `status ${r.status}`, (e: Error) => e.name),
        [target, body],
      );
      expect(preflighted).toBe('TypeError');
      await evilPage.close();
    } finally {
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
    expect(await annotations()).toBe(before);
  });

  it('a single-file report inlines the agreement and has no write path', async () => {
    await labelled([...QUEUE_LABELS, [6, 'helpful', true, 'bo']]);
    const out = join(project.dir, 'report.html');
    const result = await runCli(['runs', 'show', REVIEW_RUN, '--format', 'html', '-o', out], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    // exit 1: the run's gates failed (the judge failed rows); the report is written either way
    expect(result.stderr).not.toMatch(/^error:/m);
    const html = await readFile(out, 'utf8');
    expect(html).not.toContain('<meta name="agentmark-session"');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) requests.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(pathToFileURL(out).href);
    await page.waitForSelector('.agreement-eval[data-eval=helpful]');
    const store = new RunStore(project.dir);
    const expected = (await agreementOfRun(await openRunFolder(store.runDir(REVIEW_RUN)), await scores(), store)).evals.find((e) => e.eval === 'helpful');
    // rows 0–2 from the queue, row 6 from the reviewer who gave a name
    expect(expected?.n).toBe(4);
    expect(await page.textContent('.agreement-eval[data-eval=helpful] [data-testid=rows-behind]')).toBe('4');
    expect(await page.textContent('.agreement-eval[data-eval=helpful] [data-testid=percent]')).toBe(`${((expected?.percentAgreement.value ?? 0) * 100).toFixed(1)}%`);
    expect(await page.locator('.label-controls, [data-testid=review-queue], [data-testid=disagreements]').count()).toBe(0);
    await page.goto(`${pathToFileURL(out).href}#/runs/${REVIEW_RUN}/rows/5`);
    await page.waitForSelector('.row-page [data-testid=output]');
    expect(await page.locator('.label-controls, table.labels-table').count()).toBe(0);
    await page.goto(`${pathToFileURL(out).href}#/runs/${REVIEW_RUN}/review`);
    await page.waitForSelector('main');
    expect(await page.textContent('main')).toContain('The review queue writes labels: open it in agentmark view.');
    expect(requests).toEqual([]);
  });
});
