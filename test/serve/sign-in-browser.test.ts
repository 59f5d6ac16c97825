import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS } from '../view/browser.js';
import { atWidth, outsideWindow, viewportProblems } from '../view/geometry.js';
import { REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, startServe, type ServeProcess } from './serve-process.js';

let project: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let ada: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  project = await reviewProject();
  ada = await createToken(project.dir, 'ada', 'reviewer');
  server = await startServe(project.dir);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await project?.cleanup();
});

describe('agentmark serve in Chromium: the sign-in page', () => {
  it('is laid out at 1280 and 390 px: the form on screen, nothing to scroll sideways', async () => {
    await page.goto(server.url);
    await page.waitForSelector('form.sign-in');
    expect(await viewportProblems(page, { tables: [], noScrollingSideways: true })).toEqual({ 1280: [], 390: [] });
    for (const width of [1280, 390]) {
      expect(await atWidth(page, width, () => outsideWindow(page, 'form.sign-in, #token, button[type=submit]'))).toEqual([]);
      await atWidth(page, width, () => page.screenshot({ path: join(SCREENSHOTS, `serve-sign-in-${width}.png`), fullPage: true }));
    }
  });

  it('a wrong token shows why, under 401; the right one opens the runs page, which labels as the account', async () => {
    await page.fill('#token', 'not-a-token');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.textContent('.notice')).toBe('That token is not valid (mistyped, revoked, or from another server).');
    await atWidth(page, 390, () => page.screenshot({ path: join(SCREENSHOTS, 'serve-sign-in-wrong-390.png'), fullPage: true }));
    await page.fill('#token', ada);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await page.waitForSelector('table.runs tbody tr');
    expect(await page.getAttribute('table.runs tbody tr a', 'href')).toContain(REVIEW_RUN);
    const session = await page.getAttribute('meta[name="agentmark-session"]', 'content');
    expect(JSON.parse(session as string)).toEqual({ token: expect.any(String), reviewer: 'ada' });
    // The cookie is out of the page's reach.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
    await page.screenshot({ path: join(SCREENSHOTS, 'serve-runs-1280.png') });
    expect(pageErrors).toEqual([]);
  });
});
