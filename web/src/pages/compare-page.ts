import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { CompareResponse, RunDescription, RunPerformance } from '../api.js';
import { ChangedRowPair } from '../components/changed-row-pair.js';
import { CompareEvals } from '../components/compare-evals.js';
import { PromptDiffSection } from '../components/prompt-diff.js';
import type { DataSource } from '../data/source.js';
import { cellText, dateTime, ms, usd } from '../format.js';
import { useKeys } from '../keyboard.js';
import { href, navigate } from '../router.js';

type Shown = 'all' | 'regressed' | 'improved';

function RunFacts({ label, run }: { label: string; run: RunDescription }): VNode {
  return html`<div class=${`compare-run compare-${label}`}>
    <h2>${label} <a class="mono" href=${href.run(run.id)}>${run.id}</a></h2>
    <dl class="facts">
      <div><dt>prompt</dt><dd class="mono">${run.prompt.path}</dd></div>
      <div><dt>model</dt><dd class="mono">${run.model}</dd></div>
      <div><dt>started</dt><dd>${dateTime(run.startedAt)}</dd></div>
      <div><dt>rows</dt><dd>${run.rows}${run.repeat > 1 ? ` × ${run.repeat} repeats` : ''}</dd></div>
      <div><dt>commit</dt><dd class="mono">${run.git ? `${run.git.commit.slice(0, 12)}${run.git.dirty ? ' (dirty)' : ''}` : '—'}</dd></div>
    </dl>
  </div>`;
}

function performance(p: RunPerformance): string {
  const latency = p.latencyP50Ms === undefined ? 'latency n/a' : `p50 ${ms(p.latencyP50Ms)}, p95 ${ms(p.latencyP95Ms)}`;
  return `${latency} · ${p.inputTokens.toLocaleString('en-US')} in / ${p.outputTokens.toLocaleString('en-US')} out tokens · ${usd(p.costUsd)}`;
}

/**
 * Two runs compared: what differs, how rows paired, per eval the difference with its interval
 * and p-values, performance, then the rows that changed verdict side by side. Every number is
 * the server's CompareResponse (src/compare), the same document `agentmark compare --format
 * json` prints.
 */
const GATE_MARK = { regressed: '✘', inconclusive: '?', 'no regression': '✔' } as const;
const GATE_CLASS = { regressed: 'gate-fail', inconclusive: 'gate-inconclusive', 'no regression': 'gate-pass' } as const;

export function ComparePage({ source, base, head }: { source: DataSource; base: string; head: string }): VNode {
  const [result, setResult] = useState<CompareResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [shown, setShown] = useState<Shown>('all');
  useEffect(() => {
    source.compare(base, head).then(setResult, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [base, head]);
  useKeys({ back: () => navigate(href.runs()) });
  if (error) return html`<main><nav><a href=${href.runs()}>← all runs</a></nav><p role="alert" class="error-text">${error}</p></main>`;
  if (!result) return html`<p class="muted" aria-busy="true">comparing ${base} with ${head}…</p>`;
  const { pairing, changedRows: changed } = result;
  const rows = changed.rows.filter((r) => shown === 'all' || r.change === shown);
  return html`<main class="compare-page">
    ${source.kind === 'server' ? html`<nav><a href=${href.runs()}>← all runs</a></nav>` : null}
    <h1>compare <span class="muted">(head − base)</span></h1>
    <div class="compare-runs"><${RunFacts} label="base" run=${result.base} /><${RunFacts} label="head" run=${result.head} /></div>
    <section aria-labelledby="differs-title">
      <h2 id="differs-title">what differs</h2>
      ${result.differences.length === 0
        ? html`<p>nothing (same prompt, model, settings, dataset and commit)</p>`
        : html`<ul class="differences">${result.differences.map(
            (d) => html`<li data-field=${d.field}><b>${d.field}</b>: <span class="mono">${cellText(d.base, 200)}</span> → <span class="mono">${cellText(d.head, 200)}</span></li>`,
          )}</ul>`}
      <p data-testid="pairing"><span data-testid="paired">${pairing.paired}</span> rows paired, ${pairing.onlyInBase} only in base, ${pairing.onlyInHead} only in head</p>
      ${pairing.warning === undefined ? null : html`<p class="gate-fail" data-testid="pairing-warning">⚠ ${pairing.warning}</p>`}
      ${(['base', 'head'] as const).map((side) => {
        const list = side === 'base' ? pairing.onlyInBaseRows : pairing.onlyInHeadRows;
        const count = side === 'base' ? pairing.onlyInBase : pairing.onlyInHead;
        return count === 0
          ? null
          : html`<p class="small">only in ${side}: ${list.map((r) => html`<a href=${href.row(side === 'base' ? result.base.id : result.head.id, r.index)}>#${r.index}</a> `)}${count > list.length ? `… ${count - list.length} more` : ''}</p>`;
      })}
    </section>
    <${PromptDiffSection} diff=${result.promptDiff} />
    <section aria-labelledby="evals-title">
      <h2 id="evals-title">evals</h2>
      <${CompareEvals} evals=${result.evals} alpha=${result.settings.alpha} />
    </section>
    <section aria-labelledby="perf-title">
      <h2 id="perf-title">performance <span class="muted small">(live calls only)</span></h2>
      <p>base: ${performance(result.performance.base)}</p>
      <p>head: ${performance(result.performance.head)}</p>
    </section>
    <p class=${`gate ${GATE_CLASS[result.gate.outcome]}`} data-testid="gate" data-outcome=${result.gate.outcome}>${result.gate.checked ? 'gate' : 'regression check'}: ${GATE_MARK[result.gate.outcome]} ${result.gate.message}</p>
    <section aria-labelledby="changed-title">
      <h2 id="changed-title">changed rows: <span data-testid="regressed-count">${changed.regressed}</span> regressed, <span data-testid="improved-count">${changed.improved}</span> improved</h2>
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
        <label>show <select aria-label="changed rows" value=${shown} onChange=${(e: Event) => setShown((e.target as HTMLSelectElement).value as Shown)}>
          <option value="all">all changed rows</option><option value="regressed">regressed</option><option value="improved">improved</option>
        </select></label>
        ${changed.omitted > 0 ? html`<span class="muted">${changed.omitted} more not listed (<code>agentmark compare --show &lt;n&gt;</code> lists more)</span>` : null}
      </form>
      ${rows.map((row) => html`<${ChangedRowPair} row=${row} baseId=${result.base.id} headId=${result.head.id} />`)}
    </section>
  </main>`;
}
