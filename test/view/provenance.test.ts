import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, loadProject } from '../../src/project/index.js';
import { loadPrompt, type ChatMessage } from '../../src/prompt/index.js';
import type { ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { openViewer, type OpenViewer } from './browser.js';
import { exampleProject } from './example-project.js';

const PROMPT = 'prompts/support-reply.prompt.mdx';
const COMPONENT = 'prompts/components/tone-guide.mdx';

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let viewer: OpenViewer | undefined;
let page: Page;
let oldRun: string;
let newRun: string;
/** Row 0's messages as the run sent them, rendered before the edit. */
let sent: ChatMessage[];
let pageErrors: string[] = [];

/** The browser global that callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

async function latestRun(): Promise<string> {
  const list = await runCli(['runs', '--format', 'json', '--limit', '1'], { cwd: project.dir, env: {} });
  return (JSON.parse(list.stdout) as Array<{ id: string }>)[0]?.id as string;
}

async function shownMessages(): Promise<Array<[string, string]>> {
  await page.waitForSelector('.row-page .message');
  return page.locator('.message').evaluateAll((els) => els.map((el) => [el.querySelector('h4')?.textContent ?? '', el.querySelector('pre')?.textContent ?? ''] as [string, string]));
}

const asShown = (messages: ChatMessage[]): Array<[string, string]> => messages.map((m) => [m.role, typeof m.content === 'string' ? m.content : '']);

describe('a run edited after it ran, in a real browser', () => {
  beforeAll(async () => {
    project = await exampleProject();
    const ran = await runCli(['run-experiment', PROMPT, '--format', 'jsonl', '-q'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    expect(ran.stderr).not.toMatch(/^error:/m);
    oldRun = await latestRun();
    const loaded = await loadProject(project.dir);
    const prompt = await loadPrompt(join(project.dir, PROMPT), { project: loaded, filters: (await loadConfig(loaded)).filters });
    const first = JSON.parse((await readFile(join(project.dir, 'datasets/support-tickets.jsonl'), 'utf8')).split('\n')[0] as string) as { input: Record<string, unknown> };
    sent = prompt.render(first.input).messages ?? [];
    // Both the prompt and the component it imports change after the run.
    const component = join(project.dir, COMPONENT);
    await writeFile(component, (await readFile(component, 'utf8')).replace('Keep it warm and plain.', 'Be brief.').replace('Use a formal register', 'Use a casual register'));
    const promptFile = join(project.dir, PROMPT);
    await writeFile(promptFile, (await readFile(promptFile, 'utf8')).replace('Never blame the customer.', 'Thank the customer first.'));
    // A run of the edited prompt (no recorded answers: its rows error, which a comparison allows).
    await runCli(['run-experiment', PROMPT, '--cache-only', '--format', 'jsonl', '-q'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    newRun = await latestRun();
    viewer = await openViewer({ projectRoot: project.dir, port: 0 });
    ({ server, page, pageErrors } = viewer);
  }, 120_000);

  afterAll(async () => {
    await viewer?.close();
    await project?.cleanup();
  });

  // Each test answers for the page errors its own visits raised: a last "no page errors" test
  // passed vacuously when run alone, and blamed no one when it failed.
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('the row page shows the messages the run sent, not the edited prompt\'s', async () => {
    expect(sent.map((m) => m.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(sent)).toContain('Never blame the customer.');
    await page.goto(`${server.url}#/runs/${oldRun}/rows/0`);
    expect(await shownMessages()).toEqual(asShown(sent));
    // the edited prompt's run shows its own, edited messages
    await page.goto(`${server.url}#/runs/${newRun}/rows/0`);
    await page.waitForFunction((id) => document.querySelector('.row-page nav a')?.textContent === `← run ${id}`, newRun);
    // The page changes before its messages load: wait for the new ones, not the old row's.
    await page.waitForFunction(() => document.querySelector('.row-page .message pre')?.textContent?.includes('Thank the customer first.') === true);
    const edited = await shownMessages();
    expect(edited[0]?.[1]).toContain('Thank the customer first.');
    expect(edited[0]?.[1]).toContain('Use a casual register');
  });

  it('so does the single-file report written after the edit', async () => {
    const written = await runCli(['runs', 'show', oldRun, '--format', 'html', '-o', 'old.html'], { cwd: project.dir, env: {} });
    expect(written.stderr).toBe('');
    await page.goto(`${pathToFileURL(join(project.dir, 'old.html')).href}#/runs/${oldRun}/rows/0`);
    expect(await shownMessages()).toEqual(asShown(sent));
  });

  it('the compare page shows the prompts\' difference word by word', async () => {
    await page.goto(`${server.url}#/compare/${oldRun}/${newRun}`);
    await page.waitForSelector('[data-testid=prompt-diff] .prompt-diff-file');
    const files = await page.locator('.prompt-diff-file').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));
    expect(files).toEqual([PROMPT, COMPONENT]);
    const prompt = page.locator(`.prompt-diff-file[data-path="${PROMPT}"]`);
    expect(await prompt.locator('del').allTextContents()).toEqual(['Never blame']);
    expect(await prompt.locator('ins').allTextContents()).toEqual(['Thank', 'first']);
    const component = page.locator(`.prompt-diff-file[data-path="${COMPONENT}"]`);
    expect((await component.locator('del').allTextContents()).join('|')).toContain('formal');
    expect((await component.locator('ins').allTextContents()).join('|')).toContain('casual');
  });
});
