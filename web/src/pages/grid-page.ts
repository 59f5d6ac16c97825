import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { GridCell, GridResponse } from '../api.js';
import { CompareEvals } from '../components/compare-evals.js';
import { useEffect, useState } from 'preact/hooks';
import type { DataSource } from '../data/source.js';
import { cellText, ms, usd } from '../format.js';
import { useKeys } from '../keyboard.js';
import { href, navigate } from '../router.js';

function chip(name: string, e: GridCell['evals'][string]): VNode {
  const text = e.error !== undefined ? 'ERROR' : e.passed !== undefined ? (e.passed ? 'PASS' : 'FAIL') : (e.label ?? (e.score === undefined ? 'n/a' : String(Number(e.score.toFixed(2)))));
  const tone = e.error !== undefined || e.passed === false ? 'gate-fail' : e.passed === true ? 'gate-pass' : '';
  return html`<span class=${`grid-chip ${tone}`}>${name} ${text}</span>`;
}

const ENDED: Record<NonNullable<GridCell['conversation']>['endedBy'], string> = { stop: 'ended by stop', max_turns: 'ended at max_turns', error: 'ended by an error' };

/**
 * A conversation cell's turns and end, and (from the server, where every run's rows are) a link
 * to the row page with the whole transcript; the cell's output is the last assistant turn.
 */
function TurnsFact({ conversation, runId, linked }: { conversation: NonNullable<GridCell['conversation']>; runId: string; linked: boolean }): VNode {
  const text = `${conversation.turns} turn${conversation.turns === 1 ? '' : 's'}, ${ENDED[conversation.endedBy]}`;
  return html`<div class="grid-conversation small"><span class="muted grid-turns">${text}</span>${linked ? html` · <a class="grid-transcript" href=${href.row(runId, conversation.row)}>transcript</a>` : null}</div>`;
}

function Cell({ cell, label, runId, linked }: { cell: GridCell; label: string; runId: string; linked: boolean }): VNode {
  // The label names the run above the cell when a phone stacks each row into a card.
  return html`<td class="grid-cell" data-label=${label}>
    ${cell.error !== undefined ? html`<div class="error-text">${cellText(cell.error, 400)}</div>` : html`<div class="grid-output mono">${cellText(cell.output ?? '', 400)}</div>`}
    <div class="grid-facts">${Object.entries(cell.evals).map(([name, e]) => chip(name, e))}
      ${cell.latencyMs === undefined ? null : html`<span class="muted small">${ms(cell.latencyMs)}</span>`}
      ${cell.costUsd === undefined ? null : html`<span class="muted small">${usd(cell.costUsd)}</span>`}</div>
    ${cell.conversation === undefined ? null : html`<${TurnsFact} conversation=${cell.conversation} runId=${runId} linked=${linked} />`}
  </td>`;
}

/**
 * Three or more runs over the same rows: each head against the base (the same `compareRuns`
 * results the CLI prints), then one row per dataset row and one column per run. A conversation's
 * cell is its last assistant turn, linked to its transcript.
 */
export function GridPage({ source, ids }: { source: DataSource; ids: string[] }): VNode {
  const [grid, setGrid] = useState<GridResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    source.grid(ids).then(setGrid, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [ids.join('/')]);
  useKeys({ back: () => navigate(href.runs()) });
  const back = source.kind === 'server' ? html`<nav><a href=${href.runs()}>← all runs</a></nav>` : null;
  if (error) return html`<main>${back}<p role="alert" class="error-text">${error}</p></main>`;
  if (!grid) return html`<p class="muted" aria-busy="true">putting ${ids.length} runs side by side…</p>`;
  const base = grid.runs[0];
  const missing = grid.missing.flatMap((count, i) => (count > 0 ? [`${count} missing from ${grid.runs[i]?.label ?? i}`] : []));
  return html`<main class="compare-page grid-page">
    ${back}
    <h1>results grid <span class="muted">(${grid.runs.length} runs)</span></h1>
    ${grid.comparisons.map((c, i) => html`<section aria-label=${`${grid.runs[i + 1]?.label ?? c.head.id} vs ${base?.label ?? c.base.id}`}>
      <h2>${grid.runs[i + 1]?.label ?? c.head.id} <span class="muted">vs ${base?.label ?? c.base.id} (head − base, ${c.pairing.paired} paired rows)</span></h2>
      <${CompareEvals} evals=${c.evals} alpha=${c.settings.alpha} />
      <p class="small" data-testid="gate">${c.gate.message}</p>
    </section>`)}
    <p data-testid="grid-caption">${grid.common} rows in all ${grid.runs.length} runs${missing.length > 0 ? ` (${missing.join(', ')})` : ''}${grid.filter.disagree || grid.filter.failed ? `; ${grid.matched} shown by the filter` : ''}</p>
    <div class="grid-scroll">
      <table class="grid">
        <thead><tr><th>#</th><th>input</th>${grid.runs.map((r) => html`<th><div>${r.label}</div>${source.kind === 'server' ? html`<a class="mono small" href=${href.run(r.id)}>${r.id}</a>` : html`<span class="mono small">${r.id}</span>`}</th>`)}</tr></thead>
        <tbody>${grid.rows.map((row) => html`<tr data-index=${row.index}>
          <td>${row.index}</td>
          <td class="mono small grid-input">${cellText(JSON.stringify(row.input), 200)}</td>
          ${row.cells.map((cell, i) => html`<${Cell} cell=${cell} label=${grid.runs[i]?.label ?? ''} runId=${grid.runs[i]?.id ?? ''} linked=${source.kind === 'server'} />`)}
        </tr>`)}</tbody>
      </table>
    </div>
    ${grid.omitted > 0 ? html`<p class="muted">${grid.omitted} more rows not shown</p>` : null}
  </main>`;
}
