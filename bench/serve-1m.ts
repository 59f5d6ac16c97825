/**
 * Bench scenario 23 (issue 37): `agentmark serve` over a PostgreSQL store holding a 1,000,000-row
 * run, opened in Chromium with a viewer token (Bearer, as a reverse proxy or a script would send
 * it), until the page counts 1,000,000 rows and row 0 is on screen (target < 2 s, as 9b's local
 * open). The run is generated (as in 7c) with the view index `run-experiment` writes beside its
 * rows, and pushed with `agentmark runs push` (unmeasured), which keeps that index in the store.
 * Each sample is a first serve after the push: a fresh `serve` on a machine with no copy of the
 * run (its `.agentmark/serve-mirror/` removed first), from `page.goto` until the first rows (held
 * to the target; spawn → first rows beside it as a figure), interleaved with `agentmark view`
 * opening the same run folder in the project that pushed it (9b's open, same rows, same load),
 * the ideal serve is held against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

interface ViewIndexWriterLike {
  add(row: unknown, start: number, length: number): void;
  finish(results: { bytes: number; rows: number; sha256: string }): void;
}

/** The view index of a generated run, as the store writes it beside a run's rows (built CLI's own writer). */
async function writeViewIndex(context: BenchContext, dir: string): Promise<void> {
  const store = (await import(pathToFileURL(join(dirname(dirname(context.bin)), 'store', 'index.js')).href)) as { ViewIndexWriter: new (dir: string) => ViewIndexWriterLike };
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { integrity: { rows: number; sha256: string } };
  const writer = new store.ViewIndexWriter(dir);
  const file = await open(join(dir, 'results.jsonl'), 'r');
  let offset = 0;
  try {
    for await (const line of file.readLines()) {
      const length = Buffer.byteLength(line) + 1;
      writer.add(JSON.parse(line), offset, length);
      offset += length;
    }
  } finally {
    await file.close();
  }
  writer.finish({ bytes: offset, ...manifest.integrity });
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
    const served: number[] = [];
    const spawnToRows: number[] = [];
    const local: number[] = [];
    // The project that made and pushed the run (view opens it there), and the server's, with only the store.
    const made = await mkdtemp(join(tmpdir(), 'agentmark-bench-serve-made-'));
    const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-serve-'));
    const server = await startPostgres();
    const browser = await launch();
    try {
      context.log('  writing a 1,000,000-row run with its view index and pushing it to PostgreSQL (unmeasured)');
      await writeProjectFile(made);
      await writeProjectFile(root);
      const dir = await writeRun(made, ID, ROWS, 1, 0.8);
      await writeViewIndex(context, dir);
      const url = await server.createDatabase('serve_1m');
      const env = { PATH: process.env.PATH, NO_COLOR: '1', AGENTMARK_STORE_URL: url };
      await measureNode([context.bin, 'store', 'migrate'], { cwd: root, env, timeoutMs: 60_000 });
      const pushed = await measureNode([context.bin, 'runs', 'push', ID], { cwd: made, env, timeoutMs: 900_000 });
      if (pushed.code !== 0) notes.push(`push: exit ${pushed.code}: ${pushed.stderr.slice(-200)}`);
      const token = (await measureNode([context.bin, 'tokens', 'create', '--name', 'bench', '--role', 'viewer'], { cwd: root, env, timeoutMs: 60_000 })).stdout.trimEnd().split('\n').at(-1) as string;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      const plain = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      for (let i = 0; i < runs; i += 1) {
        // No copy of the run on this machine: each sample is the first serve after the push.
        await rm(join(root, '.agentmark', 'serve-mirror'), { recursive: true, force: true });
        const spawned = performance.now();
        const serve = await startServe(context, root, env);
        try {
          const listening = performance.now() - spawned;
          served.push(await firstRows(page, serve.url));
          spawnToRows.push(listening + (served[i] as number));
        } finally {
          await stopView(serve.child);
        }
        const view = await startView(context, made);
        try {
          local.push(await firstRows(plain, view.url));
        } finally {
          await stopView(view.child);
        }
        context.log(`  ${i + 1}/${runs}: first serve after the push ${served[i]?.toFixed(0)} ms (spawn → first rows ${spawnToRows[i]?.toFixed(0)} ms), view of the same folder ${local[i]?.toFixed(0)} ms`);
      }
      if ((await readdir(join(root, '.agentmark', 'serve-mirror')).catch(() => [])).length === 0) notes.push('serve made no mirror folder');
    } catch (error) {
      notes.push(error instanceof Error ? error.message : String(error));
    } finally {
      await browser.close();
      await server.stop();
      await rm(root, { recursive: true, force: true });
      await rm(made, { recursive: true, force: true });
    }
    const metrics = [
      metric('first serve after the push: open → first rows (fresh serve, no copy of the run here)', 'ms', served, { ideal: median(local), idealText: 'agentmark view of the same run folder', target: { value: 2000, source: 'issue 37', text: '< 2 s' } }),
      metric('open → first rows (agentmark view of the same folder, interleaved)', 'ms', local),
      metric('first serve after the push: spawn → first rows', 'ms', spawnToRows),
    ];
    return { id: this.id, title: this.title, status: notes.length === 0 && served.length === runs ? 'ok' : 'failed', notes, metrics, details: { rows: ROWS } };
  },
};
