/**
 * Bench scenario 23 (issue 37): `agentmark serve` over a PostgreSQL store holding a 1,000,000-row
 * run, opened in Chromium with a viewer token (Bearer, as a reverse proxy or a script would send
 * it), until the page counts 1,000,000 rows and row 0 is on screen (target < 2 s, as 9b's local
 * open). The run is generated (as in 7c) and pushed with `agentmark runs push` (unmeasured).
 * - cold: the first `serve` after the push, with no copy of the run on this machine yet: from
 *   spawning serve until the first rows show (the copy of the run from the database, with its
 *   view index, included: the server answers at once and lists the run once copied, which the
 *   bench polls for). One sample; a figure, not held to the target.
 * - warm: a fresh `serve` each time over the copy the cold start made (what every later start of
 *   the server, and every page after the first, sees): from `page.goto` until the first rows;
 *   interleaved with `agentmark view` opening the same run folder copied into the project's runs
 *   folder (9b's open, same bytes, same load), the ideal serve is held against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import type { BenchContext } from './context.js';
import { writeProjectFile, writeRun } from './generated-runs.js';
import { measureNode } from './measure.js';
import { postgresBinDir, startPostgres } from './postgres-server.js';
import { median, metric, type ScenarioResult } from './report.js';
import { LIMIT, startView, stopView } from './viewer.js';

const ROWS = 1_000_000;
const ID = '20261130-000000.000-dddddd';

/** The browser globals the callbacks given to page.waitForFunction use (they run in the page). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

function startServe(context: BenchContext, root: string, env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [context.bin, 'serve', '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(text);
      if (match) resolve({ url: match[0], child });
    });
    child.stderr?.resume();
    child.on('close', (code) => reject(new Error(`agentmark serve exited ${code} before printing its URL: ${text}`)));
  });
}

async function firstRows(page: Page, url: string): Promise<number> {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto(`${url}#/runs/${ID}`);
  await page.waitForFunction((n) => document.querySelector('[data-testid=shown-count]')?.textContent === String(n), ROWS, LIMIT);
  await page.waitForFunction(() => document.querySelector('.row[data-index="0"]')?.textContent?.includes('Customer message number') ?? false, undefined, LIMIT);
  return performance.now() - started;
}

/** Asks for the list of runs every 100 ms until it has the run (the bench may poll; tests may not). */
async function listed(url: string, token: string): Promise<void> {
  for (;;) {
    const answer = (await (await fetch(`${url}api/runs`, { headers: { authorization: `Bearer ${token}` } })).json()) as { runs: Array<{ id: string }> };
    if (answer.runs.some((run) => run.id === ID)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function launch(): Promise<Browser> {
  const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
  return playwright.launch({ executablePath: await chromium.executablePath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
}

export const serveOpen1mScenario = {
  id: 'serve-open-1m',
  title: '23 serve: open a 1,000,000-row run from the store',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    postgresBinDir();
    const notes: string[] = [];
    const warm: number[] = [];
    const local: number[] = [];
    let cold: number | undefined;
    const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-serve-'));
    const server = await startPostgres();
    const browser = await launch();
    try {
      context.log('  writing a 1,000,000-row run and pushing it to PostgreSQL (unmeasured)');
      await writeProjectFile(root);
      await writeRun(root, ID, ROWS, 1, 0.8);
      const url = await server.createDatabase('serve_1m');
      const env = { PATH: process.env.PATH, NO_COLOR: '1', AGENTMARK_STORE_URL: url };
      await measureNode([context.bin, 'store', 'migrate'], { cwd: root, env, timeoutMs: 60_000 });
      const pushed = await measureNode([context.bin, 'runs', 'push', ID], { cwd: root, env, timeoutMs: 900_000 });
      if (pushed.code !== 0) notes.push(`push: exit ${pushed.code}: ${pushed.stderr.slice(-200)}`);
      // The server's machine has only the store: no local copy of the run.
      await rm(join(root, '.agentmark', 'runs'), { recursive: true, force: true });
      const made = await measureNode([context.bin, 'tokens', 'create', '--name', 'bench', '--role', 'viewer'], { cwd: root, env, timeoutMs: 60_000 });
      const token = made.stdout.trimEnd().split('\n').at(-1) as string;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      const spawned = performance.now();
      const first = await startServe(context, root, env);
      try {
        const listening = performance.now() - spawned;
        // The server answers at once and lists the run once its copy is whole: the page opens then.
        await listed(first.url, token);
        const copied = performance.now() - spawned;
        const open = await firstRows(page, first.url);
        cold = copied + open;
        context.log(`  cold (copy from the store included): ${cold.toFixed(0)} ms (listening after ${listening.toFixed(0)} ms, run listed after ${copied.toFixed(0)} ms)`);
      } finally {
        await stopView(first.child);
      }
      // The same run folder in the project's runs folder, for `agentmark view` to open beside it.
      const [mirrored] = await readdir(join(root, '.agentmark', 'serve-mirror'));
      await cp(join(root, '.agentmark', 'serve-mirror', mirrored as string, 'runs', ID), join(root, '.agentmark', 'runs', ID), { recursive: true });
      const plain = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      for (let i = 0; i < runs; i += 1) {
        const serve = await startServe(context, root, env);
        try {
          warm.push(await firstRows(page, serve.url));
        } finally {
          await stopView(serve.child);
        }
        const view = await startView(context, root);
        try {
          local.push(await firstRows(plain, view.url));
        } finally {
          await stopView(view.child);
        }
        context.log(`  warm ${i + 1}/${runs}: serve ${warm[i]?.toFixed(0)} ms, view of the same folder ${local[i]?.toFixed(0)} ms`);
      }
    } catch (error) {
      notes.push(error instanceof Error ? error.message : String(error));
    } finally {
      await browser.close();
      await server.stop();
      await rm(root, { recursive: true, force: true });
    }
    const metrics = [
      metric('open → first rows (fresh serve, run copied before)', 'ms', warm, { ideal: median(local), idealText: 'agentmark view of the same run folder', target: { value: 2000, source: 'issue 37', text: '< 2 s' } }),
      metric('open → first rows (agentmark view of the same folder, interleaved)', 'ms', local),
      ...(cold === undefined ? [] : [metric('first serve after the push: spawn → first rows (copy included)', 'ms', [cold])]),
    ];
    return { id: this.id, title: this.title, status: notes.length === 0 && warm.length === runs ? 'ok' : 'failed', notes, metrics, details: { rows: ROWS } };
  },
};
