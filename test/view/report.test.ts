import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/experiment/types.js';
import type { RunManifest } from '../../src/store/types.js';
import { buildReportData, renderReportHtml } from '../../src/view/index.js';
import { COMPRESS_ABOVE, scriptSafeJson } from '../../src/view/single-file.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { SCREENSHOTS, launchBrowser } from './browser.js';
import { HOSTILE, exampleProject } from './example-project.js';
import { row, writeRun } from './synthetic-run.js';

const pct = (value: number | undefined): string => (value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);

async function* rowsOf(path: string): AsyncGenerator<import('../../src/experiment/types.js').RowResult> {
  const text = await readFile(path, 'utf8');
  for (const line of text.split('\n')) if (line !== '') yield JSON.parse(line) as import('../../src/experiment/types.js').RowResult;
}

describe('scriptSafeJson', () => {
  it('leaves no "<" in the text, so no </script> or <!-- in the data can end or bend the script element', () => {
    const text = scriptSafeJson({ a: HOSTILE.script, b: HOSTILE.img, c: '\u2028' });
    expect(text).not.toContain('<');
    expect(text).toBe('{"a":"before \\u003c/script>\\u003cscript>alert(2)\\u003c/script> after \\u003c!-- comment","b":"\\u003cimg src=x onerror=alert(1)>","c":"\\u2028"}');
    expect(JSON.parse(text)).toEqual({ a: HOSTILE.script, b: HOSTILE.img, c: '\u2028' });
  });
});

describe('the single-file report in a real browser', () => {
  let project: { dir: string; cleanup: () => Promise<void> };
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const dialogs: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    project = await exampleProject();
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // A CSP violation (an inline script or style without its hash) is logged as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // No request may leave the page: everything is inlined.
    page.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) problems.push(`request: ${request.url()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  it('opened from file://, shows the same numbers as the json report of the run', async () => {
    const cli = await runCli(['run-experiment', 'prompts/classify-intent.prompt.mdx', '--format', 'html', '-o', 'report.html', '-q'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    expect(cli.stderr).not.toMatch(/^error:/m);
    expect(cli.code).toBe(1);
    const html = await readFile(join(project.dir, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:; base-uri 'none'; form-action 'none'">/);
    const json = await runCli(['run-experiment', 'prompts/classify-intent.prompt.mdx', '--format', 'json', '-q'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    const { summary } = JSON.parse(json.stdout) as { summary: RunSummary };

    await page.goto(pathToFileURL(join(project.dir, 'report.html')).href);
    await page.waitForSelector('.row[data-index]');
    expect(await page.textContent('[data-testid=rows-run]')).toBe(String(summary.rows));
    expect(await page.textContent('[data-testid=rows-errored]')).toBe(String(summary.errored));
    for (const e of summary.evals) {
      const card = page.locator(`.eval-card[data-eval="${e.name}"]`);
      expect(await card.locator('.pass-rate').textContent()).toBe(pct(e.passRate));
      expect(await card.locator('.ci-low').textContent()).toBe(pct(e.passRateCi95?.[0]));
      expect(await card.locator('.ci-high').textContent()).toBe(pct(e.passRateCi95?.[1]));
      expect(await card.locator('.mean').textContent()).toBe(e.meanScore === undefined ? null : e.meanScore.toFixed(3));
    }
    expect(await page.locator('.row[data-index]').count()).toBe(summary.rows);
    await page.screenshot({ path: join(SCREENSHOTS, 'report.png'), fullPage: true });
    await page.click('.row[data-index="11"] a');
    await page.waitForSelector('.row-page .message');
    expect(await page.locator('.message h4').allTextContents()).toEqual(['system', 'user']);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.row[data-index]');
    expect(problems).toEqual([]);
  });

  it('with repeats, the eval cards show pass^k and pass@k with their intervals, as the json report has them', async () => {
    // 8 rows × 3 repeats: rows 0–4 always pass, 5 and 6 pass once, 7 never.
    const id = '20261130-140000.000-abc123';
    const rows = Array.from({ length: 24 }, (_, i) => {
      const index = Math.floor(i / 3);
      const repeat = i % 3;
      const passed = index < 5 || (index < 7 && repeat === 0);
      return row(index, { repeat, evals: { ok: { passed, score: passed ? 1 : 0, normalized: passed ? 1 : 0 } } });
    });
    await writeRun(project.dir, { id, evalNames: ['ok'], rows });
    const html = await runCli(['runs', 'show', id, '--format', 'html', '-o', 'repeats.html'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    expect(html.stderr).toBe('');
    const json = await runCli(['runs', 'show', id, '--format', 'json'], { cwd: project.dir, env: {}, timeoutMs: 60_000 });
    const [ok] = (JSON.parse(json.stdout) as { summary: RunSummary }).summary.evals;
    expect(ok).toMatchObject({ repeats: 3, passHatK: 5 / 8, passAtK: 7 / 8 });
    await page.goto(pathToFileURL(join(project.dir, 'repeats.html')).href);
    const card = page.locator('.eval-card[data-eval="ok"]');
    await card.waitFor();
    expect(await card.locator('.pass-hat-k').textContent()).toBe(`pass^3 ${pct(ok?.passHatK)} (${pct(ok?.passHatKCi95?.[0])} – ${pct(ok?.passHatKCi95?.[1])})`);
    expect(await card.locator('.pass-at-k').textContent()).toBe(`pass@3 ${pct(ok?.passAtK)} (${pct(ok?.passAtKCi95?.[0])} – ${pct(ok?.passAtKCi95?.[1])})`);
    expect(await card.locator('.ci-low').textContent()).toBe(pct(ok?.passRateCi95?.[0]));
    expect(problems).toEqual([]);
  });

  it('shows hostile rows literally, and a large report is compressed and still opens', async () => {
    const dir = await tempProject({ 'agentmark.json': '{}' });
    try {
      const id = '20261130-150000.000-abcdef';
      const rows = [
        row(0, { output: HOSTILE.img, input: { question: HOSTILE.input }, evals: { safe: { passed: false, reason: HOSTILE.script } } }),
        ...Array.from({ length: 4000 }, (_, i) => row(i + 1, { output: `${HOSTILE.script} ${i + 1}`, evals: { safe: { passed: true } } })),
      ];
      const handle = await writeRun(dir.dir, { id, evalNames: ['safe'], rows });
      const manifest = JSON.parse(await readFile(join(handle.dir, 'manifest.json'), 'utf8')) as RunManifest;
      const html = await renderReportHtml(await buildReportData(dir.dir, manifest, rowsOf(join(handle.dir, 'results.jsonl'))));
      expect(scriptSafeJson(rows).length).toBeGreaterThan(COMPRESS_ABOVE);
      expect(html).toContain('<script type="application/gzip-base64" id="agentmark-data">');
      expect(html).not.toContain('alert(');
      const file = join(dir.dir, 'hostile.html');
      await writeFile(file, html);
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-testid=shown-count]')?.textContent === '4001');
      expect(await page.locator('.row[data-index="0"] .output-cell').textContent()).toBe(HOSTILE.img);
      expect(await page.locator('.row[data-index="1"] .output-cell').textContent()).toBe(`${HOSTILE.script} 1`);
      await page.click('.row[data-index="0"] a');
      await page.waitForSelector('[data-testid=output]');
      expect(await page.textContent('[data-testid=output]')).toBe(HOSTILE.img);
      expect(await page.textContent('tr[data-eval="safe"] .reason')).toBe(HOSTILE.script);
      expect(await page.locator('img, svg[onload]').count()).toBe(0);
      expect(dialogs).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await dir.cleanup();
    }
  });
});
