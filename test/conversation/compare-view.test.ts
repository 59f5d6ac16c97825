/**
 * The viewer's compare page of two conversation runs (made by the built CLI against the loopback
 * server): a changed row shows the base's and the head's transcripts side by side, each a chat
 * with its turns, its simulated marks and how it ended, and both on screen on a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openViewer, type OpenViewer } from '../view/browser.js';
import { TABLES, atWidth, outsideWindow, viewportProblems } from '../view/geometry.js';
import { conversationProject, supportPrompt, type ConversationProject } from './cli-project.js';

let project: ConversationProject;
let viewer: OpenViewer;
let page: Page;
let ids: string[];

beforeAll(async () => {
  // The base stops at 2 user turns (max_turns); the head lets the script end by stop at 3.
  project = await conversationProject(2, supportPrompt(2, ['  evals: [ended]']));
  expect((await project.cli(['run-experiment', 'prompts/support.prompt.mdx', '--quiet'])).code).toBe(1);
  await project.setPrompt(supportPrompt(4, ['  evals: [ended]']));
  expect((await project.cli(['run-experiment', 'prompts/support.prompt.mdx', '--quiet'])).code).toBe(0);
  ids = (JSON.parse((await project.cli(['runs', '--format', 'json'])).stdout) as Array<{ id: string }>).map((run) => run.id).reverse();
  viewer = await openViewer({ projectRoot: project.dir, port: 0 });
  page = viewer.page;
}, 120_000);
afterAll(async () => {
  await viewer?.close();
  await project?.cleanup();
});

/** A side's transcript as shown: each turn's role, mark and text, and its end line. */
const shown = (side: 'base' | 'head'): Promise<string[]> =>
  page
    .locator(`.changed-row[data-base-index="0"] section[aria-label="${side} output"] .transcript`)
    .evaluate((transcript) => [
      ...[...transcript.querySelectorAll('.turn')].map((turn) => `${turn.querySelector('.turn-role')?.textContent} ${turn.querySelector('.turn-source')?.textContent ?? '-'}: ${turn.querySelector('.turn-text')?.textContent}`),
      transcript.querySelector('[data-testid="ended-by"]')?.textContent ?? '',
    ]);

describe('the compare page of two conversation runs', () => {
  it("a changed row shows both transcripts, side by side at 1280, on screen at 390", async () => {
    expect(ids).toHaveLength(2);
    await page.goto(`${viewer.server.url}#/compare/${ids[0]}/${ids[1]}`);
    await page.waitForSelector('.changed-row .transcript .turn');
    expect(await page.locator('.changed-row').count()).toBe(2);
    expect(await shown('base')).toEqual([
      'user simulated: I was charged twice',
      'assistant -: re: I was charged twice',
      'user simulated: Order 1234',
      'assistant -: re: Order 1234',
      '2 turns, ended at max_turns',
    ]);
    expect(await shown('head')).toEqual([
      'user simulated: I was charged twice',
      'assistant -: re: I was charged twice',
      'user simulated: Order 1234',
      'assistant -: re: Order 1234',
      'user simulated: Thank you',
      'assistant -: re: Thank you',
      '3 turns, ended by the stop text',
    ]);
    // Side by side at 1280: one top edge, the head's right of the base's.
    const boxes = await atWidth(page, 1280, () =>
      page.locator('.changed-row[data-base-index="0"] .transcript').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect()).map((box) => ({ top: box.top, left: box.left, right: box.right }))),
    );
    expect(boxes).toHaveLength(2);
    expect(Math.abs((boxes[1]?.top ?? 0) - (boxes[0]?.top ?? 0))).toBeLessThan(1.5);
    expect(boxes[1]?.left ?? 0).toBeGreaterThanOrEqual(boxes[0]?.right ?? Infinity);
    for (const width of [1280, 390]) expect(await atWidth(page, width, () => outsideWindow(page, '.changed-row .turn .turn-text, .changed-row [data-testid="ended-by"]'))).toEqual([]);
    expect(await viewportProblems(page, { tables: [TABLES.compareEvals] })).toEqual({ 1280: [], 390: [] });
    expect(viewer.pageErrors).toEqual([]);
  }, 60_000);
});
