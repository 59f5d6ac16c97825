import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';
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
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
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
