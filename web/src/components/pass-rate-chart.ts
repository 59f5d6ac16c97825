import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { RunListItem } from '../api.js';
import { percent } from '../format.js';

const COLOURS = 4;

/** Per prompt, each eval's pass rate (from each run's summary) over its runs, oldest first. */
export function PassRateChart({ runs, prompt }: { runs: RunListItem[]; prompt: string }): VNode {
  const ordered = runs.filter((r) => r.evals.some((e) => e.passRate !== undefined)).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const names = [...new Set(ordered.flatMap((r) => r.evals.filter((e) => e.passRate !== undefined).map((e) => e.name)))];
  if (ordered.length === 0) return html`<p class="muted">${prompt}: no finished runs with a pass rate</p>`;
  const x = (i: number): number => (ordered.length === 1 ? 50 : 4 + (i / (ordered.length - 1)) * 92);
  const y = (rate: number): number => 36 - rate * 32;
  const latest = ordered[ordered.length - 1] as RunListItem;
  const summary = `${prompt}, pass rate over ${ordered.length} runs; latest: ${latest.evals.map((e) => `${e.name} ${percent(e.passRate)}`).join(', ')}`;
  return html`<figure class="pass-chart">
    <figcaption>${prompt}</figcaption>
    <svg viewBox="0 0 100 40" role="img" aria-label=${summary}>
      <title>${summary}</title>
      <line class="axis" x1="0" x2="100" y1="36" y2="36"></line>
      <line class="axis" x1="0" x2="100" y1="4" y2="4"></line>
      ${names.map((name, k) => {
        const points = ordered.flatMap((run, i) => {
          const rate = run.evals.find((e) => e.name === name)?.passRate;
          return rate === undefined ? [] : [`${x(i)},${y(rate)}`];
        });
        return html`<polyline class=${`series series-${k % COLOURS}`} points=${points.join(' ')}></polyline>
          ${points.map((p) => html`<circle class=${`series-${k % COLOURS}`} cx=${p.split(',')[0]} cy=${p.split(',')[1]} r="1.4"></circle>`)}`;
      })}
    </svg>
    <ul class="legend">${names.map((name, k) => html`<li class=${`series-${k % COLOURS}`}>${name}</li>`)}</ul>
  </figure>`;
}
