import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RowResult } from '../experiment/types.js';
import type { RunManifest } from '../store/types.js';
import type { StoredRun } from '../store/index.js';
import type { AgreementResponse, CompareResponse, GridResponse, ReportData, ReportRun } from './api-types.js';
import { appendRow, emptyColumns } from '../store/row-columns.js';
import { listItem } from './run-catalog.js';
import { loadRunPrompt, renderRowMessages, reproduceCommand } from './row-messages.js';
import { webDir } from './static-assets.js';
import { FAVICON } from './favicon.js';

/** Above this many bytes of JSON the data is gzipped (and base64-encoded) in the file. */
export const COMPRESS_ABOVE = 512 * 1024;

/**
 * One run as the report's pages show it, gathered from the finished run: the manifest, every
 * row (dataset order) with its index entry, and each row's messages when the prompt is unchanged.
 */
export async function buildReportRun(projectRoot: string, manifest: RunManifest, rows: AsyncIterable<RowResult>): Promise<ReportRun> {
  const evalNames = manifest.summary?.evals.map((e) => e.name) ?? [];
  const prompt = await loadRunPrompt(projectRoot, manifest);
  const index = emptyColumns(evalNames);
  const all: RowResult[] = [];
  const messages: ReportRun['messages'] = {};
  for await (const row of rows) {
    appendRow(index, row);
    all.push(row);
    if (!(row.index in messages)) messages[row.index] = renderRowMessages(prompt, row.input);
  }
  const agreement = await reportAgreement(projectRoot, manifest);
  return {
    run: { manifest, evalNames, rowCount: all.length },
    index,
    rows: all,
    messages,
    ...('note' in prompt ? { messagesNote: prompt.note } : {}),
    reproduce: reproduceCommand(manifest, 0).replace(/--row 0\b/, '--row {index}'),
    ...(agreement ? { agreement } : {}),
  };
}

/**
 * The run's judge–human agreement as `agentmark agreement` computes it, when the stored run has
 * labels (its own, carried over, or its dataset's); a report inlines it and never writes.
 */
async function reportAgreement(projectRoot: string, manifest: RunManifest): Promise<AgreementResponse | undefined> {
  const [{ loadProject }, { agreementOfRun }, { RunStore, openRunFolder }] = await Promise.all([
    import('../project/index.js'),
    import('../review/index.js'),
    import('../store/index.js'),
  ]);
  const store = new RunStore(projectRoot);
  let stored;
  try {
    stored = await openRunFolder(store.runDir(manifest.id));
  } catch {
    return undefined; // not (yet) in the store: nothing labelled
  }
  const scores = await loadProject(projectRoot).then((p) => p.scores, () => ({}));
  const agreement = await agreementOfRun(stored, scores, store);
  return agreement.evals.length > 0 || agreement.reviewers.length > 0 ? agreement : undefined;
}

/** The report of one run (`run-experiment --format html`, `runs show --format html`). */
export async function buildReportData(projectRoot: string, manifest: RunManifest, rows: AsyncIterable<RowResult>): Promise<ReportData> {
  return { version: 2, runs: [listItem(manifest)], reports: [await buildReportRun(projectRoot, manifest, rows)] };
}

/**
 * The report of a comparison (`compare --format html`): the result as `compareRuns` gave it,
 * plus both runs, so its changed rows link to their run and row pages inside the file.
 */
export async function buildCompareReportData(projectRoot: string, compare: CompareResponse, runs: readonly StoredRun[]): Promise<ReportData> {
  const reports: ReportRun[] = [];
  for (const run of runs) {
    // The same run on both sides (a comparison with itself) is inlined once.
    if (reports.some((r) => r.run.manifest.id === run.manifest.id)) continue;
    reports.push(await buildReportRun(projectRoot, run.manifest, run.rowsInOrder()));
  }
  return { version: 2, runs: reports.map((r) => listItem(r.run.manifest)), reports, compare };
}

/**
 * The report of a results grid (`compare A B C --format html`): the grid as `buildGrid` gave it
 * (outputs already cut), and the runs' list entries; the runs' rows are not inlined again.
 */
export function buildGridReportData(grid: GridResponse, runs: readonly StoredRun[]): ReportData {
  return { version: 2, runs: runs.map((r) => listItem(r.manifest)), reports: [], grid };
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `<` as \u003c: no `</script>` or `<!--` in the data can end or bend the script element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** In the app's own code `</script` or `<!--` can only sit in strings, where `<\/` means `</`. */
function inlineScript(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * One self-contained HTML file: the built app's script and style inlined, the data inlined as
 * JSON in a non-executed script element (gzipped when large), and a Content-Security-Policy that
 * allows exactly that script and that style by hash — it works from file://, with no network.
 */
export async function renderReportHtml(data: ReportData, dir = webDir()): Promise<string> {
  const js = inlineScript(await readFile(join(dir, 'assets', 'app.js'), 'utf8'));
  const css = (await readFile(join(dir, 'assets', 'app.css'), 'utf8')).replace(/<\/(style)/gi, '<\\/$1');
  const json = scriptSafeJson(data);
  const dataElement =
    json.length > COMPRESS_ABOVE
      ? `<script type="application/gzip-base64" id="agentmark-data">${gzipSync(json).toString('base64')}</script>`
      : `<script type="application/json" id="agentmark-data">${json}</script>`;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(js)}`,
    `style-src ${sha256(css)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const first = data.reports[0]?.run.manifest;
  const title = data.grid
    ? `grid ${data.grid.runs.map((r) => r.id).join(' · ')} · agentmark`
    : data.compare
    ? `compare ${data.compare.base.id} → ${data.compare.head.id} · agentmark`
    : `${first?.prompt.name ?? 'report'} · ${first?.id ?? ''} · agentmark`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<link rel="icon" href="${escapeHtml(FAVICON)}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    dataElement,
    `<script type="module">${js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
