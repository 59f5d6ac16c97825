import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RunListItem } from '../api.js';
import { PassRateChart } from '../components/pass-rate-chart.js';
import type { DataSource } from '../data/source.js';
import { dateTime, number, percent, usd } from '../format.js';
import { href, navigate } from '../router.js';

interface Filters {
  prompt: string;
  model: string;
  status: string;
  text: string;
}

function matches(run: RunListItem, f: Filters): boolean {
  if (f.prompt !== '' && run.promptPath !== f.prompt) return false;
  if (f.model !== '' && run.model !== f.model) return false;
  if (f.status !== '' && run.status !== f.status) return false;
  const text = f.text.trim().toLowerCase();
  return text === '' || [run.id, run.promptName, run.promptPath, run.model, run.datasetPath ?? '', run.gitCommit ?? ''].some((v) => v.toLowerCase().includes(text));
}

/**
 * The status filter's choices: every status a run is listed with, `abandoned` included (a team
 * store's `running` run whose writer went silent). A record, so a status added to the type and not
 * here fails the typecheck.
 */
const STATUS_CHOICES: Record<RunListItem['status'], true> = { running: true, abandoned: true, completed: true, interrupted: true, failed: true, partial: true };
const STATUSES = Object.keys(STATUS_CHOICES);

/** The most runs ticked at once (the server's grid takes up to 8). */
const MAX_GRID = 8;

/** Every run, newest first, with filters and a pass-rate chart per prompt. */
export function RunsPage({ source }: { source: DataSource }): VNode {
  const [runs, setRuns] = useState<RunListItem[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [filters, setFilters] = useState<Filters>({ prompt: '', model: '', status: '', text: '' });
  // Runs ticked for comparing, oldest tick first: two open the compare page, three or more the
  // grid; a tick past MAX_GRID drops the oldest.
  const [picked, setPicked] = useState<string[]>([]);
  useEffect(() => {
    const load = (): void => void source.listRuns().then(setRuns, (e: unknown) => setError(String(e)));
    load();
    return source.followRuns?.(load);
  }, []);
  const shown = useMemo(() => (runs ?? []).filter((r) => matches(r, filters)), [runs, filters]);
  if (error) return html`<p role="alert" class="error-text">${error}</p>`;
  if (!runs) return html`<p class="muted" aria-busy="true">loading runs…</p>`;
  const prompts = [...new Set(runs.map((r) => r.promptPath))].sort();
  const models = [...new Set(runs.map((r) => r.model))].sort();
  const set = (patch: Partial<Filters>): void => setFilters((f) => ({ ...f, ...patch }));
  const pick = (id: string, on: boolean): void => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-MAX_GRID) : p.filter((x) => x !== id)));
  const openCompare = (): void => {
    // The older run is the base: the comparison reads "what changed since".
    const ordered = picked.map((id) => runs.find((r) => r.id === id) as RunListItem).sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
    const [base, head] = ordered;
    if (ordered.length > 2) navigate(href.grid(ordered.map((r) => r.id)));
    else if (base && head) navigate(href.compare(base.id, head.id));
  };
  const select = (label: string, key: 'prompt' | 'model' | 'status', values: string[]): VNode =>
    html`<label>${label} <select aria-label=${label} value=${filters[key]} onChange=${(e: Event) => set({ [key]: (e.target as HTMLSelectElement).value })}>
      <option value="">all</option>${values.map((v) => html`<option value=${v}>${v}</option>`)}</select></label>`;
  return html`<main class="runs-page">
    <h1>runs <span class="muted">(${runs.length})</span></h1>
    ${runs.length === 0 ? html`<p>No runs yet in this project. Run <code>agentmark run-experiment &lt;prompt&gt;</code>, then reload.</p>` : null}
    <div class="charts">${prompts.map((p) => html`<${PassRateChart} prompt=${p} runs=${runs.filter((r) => r.promptPath === p)} />`)}</div>
    <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
      ${select('prompt', 'prompt', prompts)} ${select('model', 'model', models)}
      ${select('status', 'status', STATUSES)}
      <label class="search">search <input type="search" aria-label="search runs" value=${filters.text} onInput=${(e: Event) => set({ text: (e.target as HTMLInputElement).value })} /></label>
      <span class="count" aria-live="polite">${shown.length} shown</span>
    </form>
    <div class="compare-pick">
      <button type="button" data-testid="open-compare" disabled=${picked.length < 2} onClick=${openCompare}>${picked.length > 2 ? `open the grid of the ${picked.length} ticked runs` : 'compare the two ticked runs'}</button>
      <span class="muted" aria-live="polite">${picked.length >= 2 ? 'the oldest one is the base' : `tick two runs to compare them, three or more for the grid (${picked.length} ticked)`}</span>
    </div>
    <div class="table-scroll"><table class="runs">
      <thead><tr><th scope="col"><span class="visually-hidden">compare</span></th><th scope="col">started (UTC)</th><th scope="col">prompt</th><th scope="col">model</th><th scope="col">status</th>
        <th scope="col">rows</th><th scope="col">pass rate per eval</th><th scope="col">cost</th><th scope="col">commit</th></tr></thead>
      <tbody>${shown.map(
        (run) => html`<tr data-run=${run.id}>
          <td><input type="checkbox" class="pick" aria-label=${`compare ${run.id}`} checked=${picked.includes(run.id)}
            onChange=${(e: Event) => pick(run.id, (e.target as HTMLInputElement).checked)} /></td>
          <td><a class="started" href=${href.run(run.id)}>${dateTime(run.startedAt)}</a><div class="muted mono small">${run.id}</div></td>
          <td>${run.promptName}<div class="muted mono small">${run.promptPath}</div></td>
          <td class="mono">${run.model}</td>
          <td><span class=${`status status-${run.status}`}>${run.status}</span>${run.passed === undefined ? '' : html` <span class=${run.passed ? 'gate-pass' : 'gate-fail'}>${run.passed ? 'passed' : 'failed'}</span>`}</td>
          <td class="num">${run.rows ?? '—'}${run.errored ? html` <span class="error-text">(${run.errored} errored)</span>` : ''}</td>
          <td><dl class="rates">${run.evals.map(
            (e) => html`<div data-eval=${e.name}><dt title=${e.name}>${e.name}</dt><dd>${e.passRate !== undefined ? percent(e.passRate) : e.meanScore !== undefined ? `mean ${number(e.meanScore, 2)}` : '—'}</dd></div>`,
          )}</dl></td>
          <td class="num">${usd(run.costUsd)}</td>
          <td class="mono small">${run.gitCommit?.slice(0, 8) ?? '—'}</td>
        </tr>`,
      )}</tbody>
    </table></div>
  </main>`;
}
