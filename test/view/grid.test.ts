import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { launchBrowser } from './browser.js';
import { TABLES, layoutProblems, viewportProblems } from './geometry.js';

// Three runs over the same rows (two models, one prompt variant) as one single-file report:
// `agentmark compare A B C --format html -o grid.html`.
const prompt = (name: string, system: string): string =>
  `---\nname: ${name}\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [exact]\n  props:\n    word: hello\n---\n\n<System>${system}</System>\n\n<User>{props.word}</User>\n`;

let server: OpenAIServer;
let project: CliProject;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let ids: string[];
let viewer: ViewServer;
beforeAll(async () => {
  server = await startOpenAIServer({
    handler: (request) => ({ text: request.model === 'gpt-4o' ? request.lastUserText.toUpperCase() : request.messagesText.includes('Tersely') ? `${request.lastUserText}!` : request.lastUserText }),
  });
  project = await cliProject({ 'prompts/grid.prompt.mdx': prompt('grid', 'Repeat the word.'), 'prompts/grid-terse.prompt.mdx': prompt('grid-terse', 'Tersely repeat the word.') });
  const run = (args: string[]) => project.run(['run-experiment', ...args, '--no-cache', '--quiet', '--format', 'jsonl'], { server });
  await run(['prompts/grid.prompt.mdx']);
  await run(['prompts/grid.prompt.mdx', '--model', 'openai/gpt-4o']);
  await run(['prompts/grid-terse.prompt.mdx']);
  ids = await project.runIds();
  const written = await project.run(['compare', ...ids, '--format', 'html', '-o', 'grid.html']);
  expect(written.stderr).toBe('');
  expect(written.code).toBe(0);
  viewer = await startViewServer({ projectRoot: project.dir, port: 0 });
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await server.close();
  await project.cleanup();
});

describe('compare A B C --format html: the results grid in one file', () => {
  it("shows row 2's three outputs side by side in one grid row, with the heads' statistics above", async () => {
    await page.goto(pathToFileURL(join(project.dir, 'grid.html')).href);
    await page.waitForSelector('table.grid');
    expect(await page.locator('table.grid thead th').allTextContents()).toEqual([
      '#',
      'input',
      `openai/gpt-4o-mini · grid${ids[0]}`,
      `openai/gpt-4o · grid${ids[1]}`,
      `openai/gpt-4o-mini · grid-terse${ids[2]}`,
    ]);
    const row = page.locator('table.grid tbody tr[data-index="2"]');
    expect(await row.locator('.grid-output').allTextContents()).toEqual(['gamma', 'GAMMA', 'gamma!']);
    expect(await row.locator('.grid-facts').first().textContent()).toMatch(/^exact FAIL/);
    expect(await row.locator('.grid-facts').nth(1).textContent()).toMatch(/^exact PASS/);
    const boxes = await row.locator('.grid-output').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, right: r.right })));
    expect(boxes).toHaveLength(3);
    // Side by side: one top edge, each to the right of the one before.
    for (const box of boxes) expect(Math.abs(box.top - (boxes[0]?.top ?? 0))).toBeLessThan(1.5);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]?.left ?? 0).toBeGreaterThanOrEqual(boxes[i - 1]?.right ?? Infinity);
    expect(await layoutProblems(page, { tables: [TABLES.grid, TABLES.compareEvals] })).toEqual([]);
    expect(await viewportProblems(page, { tables: [TABLES.grid] })).toEqual({ 1280: [], 390: [] });
    expect(await page.locator('h2').allTextContents()).toEqual([
      `openai/gpt-4o · grid vs openai/gpt-4o-mini · grid (head − base, 3 paired rows)`,
      `openai/gpt-4o-mini · grid-terse vs openai/gpt-4o-mini · grid (head − base, 3 paired rows)`,
    ]);
    expect(await page.textContent('[data-testid=grid-caption]')).toBe('3 rows in all 3 runs');
  });
});

describe('the viewer: ticking three runs on the runs page opens the grid', () => {
  it('opens #/grid/<oldest>/<…>/<newest> with row 2\'s three outputs side by side; two ticks still open compare', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('table.runs tbody tr');
    // Ticked newest first: the oldest run is still the base.
    for (const id of [...ids].reverse()) await page.check(`input[aria-label="compare ${id}"]`);
    expect(await page.textContent('[data-testid=open-compare]')).toBe('open the grid of the 3 ticked runs');
    await page.click('[data-testid=open-compare]');
    await page.waitForSelector('table.grid tbody tr');
    expect(page.url()).toBe(`${viewer.url}#/grid/${ids.join('/')}`);
    expect(await page.locator('table.grid tbody tr[data-index="2"] .grid-output').allTextContents()).toEqual(['gamma', 'GAMMA', 'gamma!']);
    expect(await viewportProblems(page, { tables: [TABLES.grid, TABLES.compareEvals] })).toEqual({ 1280: [], 390: [] });
    // Two ticks still open the compare page.
    await page.goto(viewer.url);
    await page.waitForSelector('table.runs tbody tr');
    await page.check(`input[aria-label="compare ${ids[1]}"]`);
    await page.check(`input[aria-label="compare ${ids[0]}"]`);
    expect(await page.textContent('[data-testid=open-compare]')).toBe('compare the two ticked runs');
    await page.click('[data-testid=open-compare]');
    await page.waitForSelector('table.compare-evals');
    expect(page.url()).toBe(`${viewer.url}#/compare/${ids[0]}/${ids[1]}`);
  }, 60_000);

  it('/api/grid answers 404 for an unknown run and 400 for one run', async () => {
    const unknown = await fetch(`${viewer.url}api/grid/${ids[0]}/${ids[1]}/20261130-000000.000-000000`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'not found' }]);
    const one = await fetch(`${viewer.url}api/grid/${ids[0]}`);
    expect([one.status, await one.json()]).toEqual([400, { error: 'a grid takes 2 to 8 runs' }]);
  });
});
