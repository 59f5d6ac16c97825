import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { RunListItem } from '../api.js';
import { dateTime, percent } from '../format.js';
import { href } from '../router.js';
import { Axes, type PlotBox } from './chart-axes.js';

const COLOURS = 4;
const BOX: PlotBox = { width: 330, height: 150, left: 40, right: 322, top: 8, bottom: 116 };

/**
 * Per prompt, each eval's pass rate over its runs, oldest first, as hand-written SVG: one point
 * per run (a link to it, its title naming the run), the run's 95% interval as a band, axes
 * 0–100% and the first and last run's start.
 */
export function PassRateChart({ runs, prompt }: { runs: RunListItem[]; prompt: string }): VNode {
  const ordered = runs.filter((r) => r.evals.some((e) => e.passRate !== undefined)).sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  const names = [...new Set(ordered.flatMap((r) => r.evals.filter((e) => e.passRate !== undefined).map((e) => e.name)))];
  if (ordered.length === 0) return html`<figure class="pass-chart"><figcaption>${prompt}</figcaption><p class="muted">no finished runs with a pass rate</p></figure>`;
  const inset = 10;
  const x = (i: number): number => (ordered.length === 1 ? (BOX.left + BOX.right) / 2 : BOX.left + inset + (i / (ordered.length - 1)) * (BOX.right - BOX.left - 2 * inset));
  const y = (rate: number): number => BOX.bottom - rate * (BOX.bottom - BOX.top);
  const latest = ordered[ordered.length - 1] as RunListItem;
  const summary = `${prompt}, pass rate over ${ordered.length} run${ordered.length === 1 ? '' : 's'}; latest: ${latest.evals.map((e) => `${e.name} ${percent(e.passRate)}`).join(', ')}`;
  const when = (run: RunListItem): string => dateTime(run.startedAt).slice(5, 16);
  const xTicks = ordered.length === 1 ? [{ at: x(0), text: when(latest) }] : [{ at: x(0), text: when(ordered[0] as RunListItem), anchor: 'start' as const }, { at: x(ordered.length - 1), text: when(latest), anchor: 'end' as const }];
  return html`<figure class="pass-chart">
    <figcaption>${prompt}</figcaption>
    <svg class="chart" viewBox=${`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-label=${summary}>
      <title>${summary}</title>
      <${Axes} box=${BOX} xTitle=${`runs, oldest → newest (${ordered.length})`} yTitle="pass rate" x=${xTicks}
        y=${[0, 0.5, 1].map((v) => ({ at: y(v), text: `${v * 100}%` }))} />
      ${names.map((name, k) => {
        const points = ordered.flatMap((run, i) => {
          const e = run.evals.find((v) => v.name === name);
          return e?.passRate === undefined ? [] : [{ run, i, rate: e.passRate, ci: e.passRateCi95 ?? [e.passRate, e.passRate] }];
        });
        const edge = (side: 0 | 1) => (p: (typeof points)[number]): string => `${x(p.i)},${y(p.ci[side])}`;
        // One run: its interval as a short bar; more: the band between the intervals' edges.
        const band = points.length === 1
          ? points.flatMap((p) => [`${x(p.i) - 4},${y(p.ci[1])}`, `${x(p.i) + 4},${y(p.ci[1])}`, `${x(p.i) + 4},${y(p.ci[0])}`, `${x(p.i) - 4},${y(p.ci[0])}`])
          : [...points.map(edge(1)), ...[...points].reverse().map(edge(0))];
        return html`<g class=${`series series-${k % COLOURS}`} data-eval=${name}>
          <polygon class="band" points=${band.join(' ')}></polygon>
          <polyline class="line" points=${points.map((p) => `${x(p.i)},${y(p.rate)}`).join(' ')}></polyline>
          ${points.map((p) => html`<a href=${href.run(p.run.id)} class="point-link">
            <circle class="point" cx=${x(p.i)} cy=${y(p.rate)} r="3.2"><title>${`${name} ${percent(p.rate)} (95% interval ${percent(p.ci[0])}–${percent(p.ci[1])}) · run ${p.run.id}, ${dateTime(p.run.startedAt)}, ${p.run.model}`}</title></circle>
          </a>`)}
        </g>`;
      })}
    </svg>
    <ul class="legend">${names.map((name, k) => html`<li class=${`series-${k % COLOURS}`}>${name}</li>`)}</ul>
  </figure>`;
}
