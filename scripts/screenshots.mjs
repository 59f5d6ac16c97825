// Writes the README's pictures of the viewer (docs/viewer-*.png) from the example project, so
// they are regenerated, never hand-taken:  npm run screenshots  (it builds first).
//
// The example project (the repository root) is copied to a temporary folder and run there
// offline from its recorded answers, twice, so the runs page has a history to chart; then the
// built viewer serves it and the Chromium that @sparticuz/chromium ships takes each page at
// 1280 px wide, light theme. Nothing in the repository changes but docs/viewer-*.png.
// Look at every picture before committing it.
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const BIN = join(ROOT, 'dist', 'bundle', 'agentmark.cjs');

const project = await mkdtemp(join(tmpdir(), 'agentmark-screenshots-'));
let browser;
let server;
try {
  for (const name of ['agentmark.json', 'agentmark.config.ts', 'package.json', 'examples', 'prompts', 'datasets', 'judges']) {
    await cp(join(ROOT, name), join(project, name), { recursive: true });
  }
  // as after `npm install` in a fresh clone: the config imports `ai` and the package itself
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  await symlink(join(ROOT, 'dist'), join(project, 'dist'), 'dir');

  const cli = (...args) => {
    const result = spawnSync(process.execPath, [BIN, ...args], { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    if (result.status !== 0 && result.status !== 1) throw new Error(`agentmark ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
    return result.stdout;
  };
  for (let i = 0; i < 2; i++) cli('run-experiment', 'prompts', '--format', 'jsonl', '-o', '/dev/null', '-q');
  const runs = JSON.parse(cli('runs', '--format', 'json'));
  const latest = (file) => runs.find((r) => r.prompt === `prompts/${file}`).id;
  const base = latest('classify-intent.prompt.mdx');
  const head = latest('classify-intent-v2.prompt.mdx');
  cli('runs', 'show', base, '--format', 'html', '-o', 'report.html');

  const { startViewServer } = await import(pathToFileURL(join(ROOT, 'dist', 'view', 'index.js')).href);
  server = await startViewServer({ projectRoot: project, port: 0 });
  const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
  browser = await playwright.launch({
    executablePath: await chromium.executablePath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const rowsIn = () => page.waitForFunction(() => !(document.querySelector('.row[data-index]')?.textContent ?? '…').includes('…'));
  const shots = [
    ['runs', server.url, () => page.waitForSelector('table.runs tbody tr')],
    ['run', `${server.url}#/runs/${base}`, rowsIn],
    ['row', `${server.url}#/runs/${base}/rows/11`, () => page.waitForSelector('.row-page .message')],
    ['compare', `${server.url}#/compare/${base}/${head}`, () => page.waitForSelector('.changed-row')],
    ['report', pathToFileURL(join(project, 'report.html')).href, rowsIn],
  ];
  for (const [name, url, drawn] of shots) {
    await page.goto(url);
    await drawn();
    const path = join(DOCS, `viewer-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    process.stdout.write(`wrote ${path}\n`);
  }
  if (errors.length > 0) throw new Error(`page errors:\n${errors.join('\n')}`);
} finally {
  await browser?.close();
  await server?.close();
  await rm(project, { recursive: true, force: true });
}
