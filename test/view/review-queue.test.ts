import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { appendAnnotations, labelLine } from '../../src/review/index.js';
import type { ViewServer } from '../../src/view/index.js';
import { openViewer, type OpenViewer } from './browser.js';
import { REVIEW_RUN, reviewProject, reviewRows } from './review-run.js';

/** The browser globals that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let viewer: OpenViewer | undefined;
let page: Page;
let pageErrors: string[] = [];

async function textIs(selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, t]) => document.querySelector(s as string)?.textContent === t, [selector, text]);
}

/**
 * Labels given before the page opens: bo labelled rows 0–2 of `helpful`, ana (the viewer's
 * reviewer) rows 0 and 1. So ana's queue starts at row 2, and anyone's count is 3.
 */
async function labelled(): Promise<void> {
  const rows = reviewRows();
  const scores = JSON.parse(await readFile(join(project.dir, 'agentmark.json'), 'utf8')).scores;
  const line = (row: RowResult, reviewer: string, value: boolean) => labelLine({ row, eval: 'helpful', value, reviewer, at: '2026-12-01T12:00:00.000Z' }, scores);
  const [r0, r1, r2] = rows as [RowResult, RowResult, RowResult];
  await appendAnnotations(join(project.dir, '.agentmark', 'runs', REVIEW_RUN), [line(r0, 'bo', true), line(r1, 'bo', false), line(r2, 'bo', true), line(r0, 'ana', true), line(r1, 'ana', true)]);
}

describe('the review queue: where it starts, what it shows, its filters and counts', () => {
  beforeAll(async () => {
    project = await reviewProject();
    await labelled();
    viewer = await openViewer({ projectRoot: project.dir, port: 0, reviewer: 'ana' });
    ({ server, page, pageErrors } = viewer);
  }, 120_000);

  afterAll(async () => {
    await viewer?.close();
    await project?.cleanup();
  });

  it('opens at the first row this reviewer has not labelled, shows the expected output, and counts mine and anyone\'s as the agreement panel does', async () => {
    await page.goto(`${server.url}#/runs/${REVIEW_RUN}/review?eval=helpful`);
    await textIs('[data-testid=queue-size]', '8');
    await textIs('[data-testid=queue-row]', '2');
    expect(await page.textContent('[data-testid=queue-at]')).toBe('3');
    expect(await page.textContent('.queue-row pre.expected')).toBe('answer 2');
    expect(await page.textContent('.queue-row pre.output')).toBe('answer 2');
    expect(await page.textContent('[data-testid=progress]')).toBe('by you (ana): 2 of 8 · by anyone: 3 of 8 labelled (helpful)');
    // The agreement panel counts the same rows: 3 labelled, 5 labels given.
    await textIs('[data-testid=agreement-labels]', '3 labelled rows, 5 labels given in this run');
    await page.keyboard.press('1');
    await textIs('[data-testid=reviewed]', '3');
    expect(await page.textContent('[data-testid=labelled-any]')).toBe('3');
  });

  it('"not reviewed by me" lists the rows without my label; "not reviewed by anyone" those without any', async () => {
    await page.selectOption('select[aria-label="queue filter"]', 'unreviewed-by-me');
    // rows 0–2 are mine now
    await textIs('[data-testid=queue-size]', '5');
    await textIs('[data-testid=queue-row]', '3');
    expect(page.url()).toContain('filter=unreviewed-by-me');
    expect(page.url()).toContain('eval=helpful');
    await page.keyboard.press('0');
    await textIs('[data-testid=reviewed]', '1');
    // The queue stays as it opened: the row just labelled is still there, 1 of 5.
    expect(await page.textContent('[data-testid=queue-row]')).toBe('3');
    await page.selectOption('select[aria-label="queue filter"]', 'unreviewed');
    await textIs('[data-testid=queue-size]', '4');
    await textIs('[data-testid=queue-row]', '4');
    expect(await page.textContent('[data-testid=progress]')).toBe('by you (ana): 0 of 4 · by anyone: 0 of 4 labelled (helpful)');
  });

  it('the server needs the reviewer for "not reviewed by me"', async () => {
    const answer = await fetch(`${server.url}api/runs/${REVIEW_RUN}/queue?filter=unreviewed-by-me&eval=helpful`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: '"unreviewed-by-me" needs "reviewer": whose labels count' });
    const bo = await (await fetch(`${server.url}api/runs/${REVIEW_RUN}/queue?filter=unreviewed-by-me&eval=helpful&reviewer=bo`)).json();
    expect(bo).toEqual({ filter: 'unreviewed-by-me', positions: [3, 4, 5, 6, 7] });
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
