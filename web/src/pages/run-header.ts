import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { RunResponse } from '../api.js';
import { dateTime, duration, judgeText, ms, number, usd } from '../format.js';

/** What was run, with what, and how it ended. */
export function RunHeader({ run }: { run: RunResponse }): VNode {
  const m = run.manifest;
  const s = m.summary;
  const settings = Object.entries(m.settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
  return html`<header class="run-header">
    <h1><span class="prompt-name">${m.prompt.name}</span> <span class=${`status status-${m.status}`}>${m.status}</span>
      ${s ? html`<span class=${`status ${s.passed ? 'status-passed' : 'status-failed'}`}>${s.passed ? 'gates passed' : 'gates failed'}</span>` : null}</h1>
    <dl class="facts">
      <div><dt>run</dt><dd class="mono">${m.id}</dd></div>
      <div><dt>prompt</dt><dd class="mono">${m.prompt.path}</dd></div>
      <div><dt>model</dt><dd class="mono">${m.model}</dd></div>
      <div><dt>dataset</dt><dd class="mono">${m.dataset?.path ?? '—'}</dd></div>
      <div><dt>commit</dt><dd class="mono">${m.git ? `${m.git.commit.slice(0, 12)}${m.git.dirty ? ' (dirty)' : ''}` : '—'}</dd></div>
      <div><dt>started</dt><dd>${dateTime(m.startedAt)}</dd></div>
      <div><dt>duration</dt><dd>${duration(m.startedAt, m.endedAt)}</dd></div>
      <div><dt>settings</dt><dd class="mono">${settings || '—'}</dd></div>
      ${s
        ? html`<div><dt>rows</dt><dd><span data-testid="rows-run">${s.rows}</span> run, <span data-testid="rows-errored">${s.errored}</span> errored, ${s.cached} cached, ${s.pregenerated} pre-generated</dd></div>
            <div><dt>latency</dt><dd data-testid="latency">${s.latencyMs.p50 === undefined ? `no live calls (${s.cached} cached, ${s.pregenerated} pre-generated)` : `p50 ${ms(s.latencyMs.p50)}, p95 ${ms(s.latencyMs.p95)}`}</dd></div>
            <div><dt>tokens</dt><dd>${number(s.usage.totalTokens)} (${number(s.usage.inputTokens)} in, ${number(s.usage.outputTokens)} out)</dd></div>
            <div><dt>cost</dt><dd>${usd(s.costUsd)}</dd></div>
            ${s.judge ? html`<div><dt>judge</dt><dd data-testid="judge-spend">${judgeText(s.judge)}</dd></div>` : null}`
        : html`<div><dt>rows so far</dt><dd><span data-testid="rows-run">${run.live?.rows ?? run.rowCount}</span> (<span data-testid="rows-errored">${run.live?.errored ?? 0}</span> errored)</dd></div>`}
    </dl>
    ${s && s.gates.length > 0
      ? html`<ul class="gates" aria-label="gates">${s.gates.map((g) => html`<li class=${g.passed ? 'gate-pass' : 'gate-fail'}><b>${g.passed ? 'PASS' : 'FAIL'}</b> ${g.name}: ${g.message}</li>`)}</ul>`
      : null}
    ${run.resume ? html`<p class="resume" data-testid="resume">This run did not finish. Continue it with: <code>${run.resume}</code></p>` : null}
    ${s && s.flaky.length > 0 ? html`<p class="flaky">flaky rows: ${s.flaky.map((f) => `${f.index} (${f.evals.join(', ')})`).join('; ')}</p>` : null}
  </header>`;
}
