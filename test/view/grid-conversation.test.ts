import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { GridResponse } from '../../src/view/api-types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { SCREENSHOTS, launchBrowser } from './browser.js';
import { exampleProject } from './example-project.js';
import { TABLES, atWidth, outsideWindow, viewportProblems } from './geometry.js';

// The example project's support conversations (three rows, replayed offline), run twice: the
// grid page of the two runs, each cell a conversation's last assistant turn.
let project: { dir: string; cleanup: () => Promise<void> };
let viewer: ViewServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
let ids: string[];
const cli = (args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: project.dir, env: {}, timeoutMs: 60_000 });

beforeAll(async () => {
  project = await exampleProject();
  for (let i = 0; i < 2; i++) expect((await cli(['run-experiment', 'prompts/support-chat.prompt.mdx', '--format', 'json', '-q'])).stderr).not.toMatch(/^error:/m);
  ids = (JSON.parse((await cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string }>).map((r) => r.id).reverse();
  viewer = await startViewServer({ projectRoot: project.dir, port: 0 });
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await project?.cleanup();
});

describe('the grid page of conversation runs', () => {
  it('the grid API counts user turns, as max_turns does: 2 (ended by stop) for rows 0 and 1, 4 for row 2 (max_turns: 4)', async () => {
    const grid = (await (await fetch(`${viewer.url}api/grid/${ids.join('/')}`)).json()) as GridResponse;
    expect(grid.rows.map((row) => row.cells.map((cell) => [cell.conversation?.turns, cell.conversation?.endedBy]))).toEqual([
      [[2, 'stop'], [2, 'stop']],
      [[2, 'stop'], [2, 'stop']],
      [[4, 'max_turns'], [4, 'max_turns']],
    ]);
  });

  it("each cell is the last assistant turn, its turns and end, and a link to the row's transcript; the cells side by side at 1280, on screen at 390", async () => {
    expect(ids).toHaveLength(2);
    await page.goto(`${viewer.url}#/grid/${ids.join('/')}`);
    await page.waitForSelector('table.grid tbody tr');
    // The last assistant turn of row 0's transcript, as the run stored it.
    // (results.jsonl is in the order rows finished)
    const stored = (await readFile(join(project.dir, '.agentmark', 'runs', ids[0] as string, 'results.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    const rows = stored.map((line) => JSON.parse(line) as { index: number; conversation: { turns: Array<{ role: string; content: string }> } });
    const turns = rows.find((r) => r.index === 0)?.conversation.turns ?? [];
    const last = turns.filter((t) => t.role === 'assistant').at(-1)?.content;
    const cells = page.locator('table.grid tbody tr[data-index="0"] td.grid-cell');
    expect(await cells.locator('.grid-output').allTextContents()).toEqual([last, last]);
    expect(await cells.locator('.grid-turns').allTextContents()).toEqual(['2 turns, ended by stop', '2 turns, ended by stop']);
    expect(await cells.locator('a.grid-transcript').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
      ['transcript', `#/runs/${ids[0]}/rows/0`],
      ['transcript', `#/runs/${ids[1]}/rows/0`],
    ]);
    expect(await page.locator('a.grid-transcript').count()).toBe(6);
    // The two cells side by side at 1280: one top edge, the second right of the first.
    const boxes = await atWidth(page, 1280, () => cells.evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, right: r.right }))));
    expect(boxes).toHaveLength(2);
    expect(Math.abs((boxes[1]?.top ?? 0) - (boxes[0]?.top ?? 0))).toBeLessThan(1.5);
    expect(boxes[1]?.left ?? 0).toBeGreaterThanOrEqual(boxes[0]?.right ?? Infinity);
    expect(await viewportProblems(page, { tables: [TABLES.grid, TABLES.compareEvals] })).toEqual({ 1280: [], 390: [] });
    for (const width of [1280, 390]) expect(await atWidth(page, width, () => outsideWindow(page, 'a.grid-transcript, .grid-turns'))).toEqual([]);
    await mkdir(SCREENSHOTS, { recursive: true });
    for (const width of [1280, 390]) await atWidth(page, width, () => page.screenshot({ path: join(SCREENSHOTS, `grid-conversation-${width}.png`), fullPage: true }));
    await atWidth(page, 390, () => page.locator('table.grid tbody tr[data-index="2"]').screenshot({ path: join(SCREENSHOTS, 'grid-conversation-390-row.png') }));
    // The link opens the row page with its chat.
    await cells.locator('a.grid-transcript').nth(1).click();
    await page.waitForSelector('.transcript .turn');
    expect(page.url()).toBe(`${viewer.url}#/runs/${ids[1]}/rows/0`);
    expect(await page.textContent('[data-testid="ended-by"]')).toBe('2 turns, ended by the stop text');
  }, 60_000);
});
