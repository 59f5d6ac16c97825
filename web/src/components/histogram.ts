import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { Axes, type PlotBox } from './chart-axes.js';

export interface Bin {
  label: string;
  from: number;
  to: number;
  count: number;
}

/** Equal-width bins over the values' range (a single bin when they are all equal). */
export function binValues(values: readonly number[], bins = 10, format: (v: number) => string = String): Bin[] {
  if (values.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === max) return [{ label: format(min), from: min, to: max, count: values.length }];
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(Math.floor((v - min) / width), bins - 1)]! += 1;
  return counts.map((count, i) => ({ label: `${format(min + i * width)}–${format(min + (i + 1) * width)}`, from: min + i * width, to: min + (i + 1) * width, count }));
}


/**
 * Bars as hand-written SVG with labelled axes: counts up the side (0 and the tallest bar), the
 * values' range along the bottom. Each bar has a title with its range and count, and the whole a
 * text summary.
 */
export function Histogram(props: {
  bins: Bin[];
  label: string;
  xTitle: string;
  format?: (v: number) => string;
  /** The viewBox's width: about the width it is drawn at, in pixels, so its text stays ~10 px. @default 240 */
  width?: number;
}): VNode {
  const { bins, label, xTitle, format = String, width = 240 } = props;
  if (bins.length === 0) return html`<p class="muted">no values</p>`;
  const BOX: PlotBox = { width, height: 130, left: 34, right: width - 8, top: 8, bottom: 98 };
  const top = Math.max(...bins.map((b) => b.count));
  const step = (BOX.right - BOX.left) / bins.length;
  const height = (count: number): number => (count / top) * (BOX.bottom - BOX.top);
  const first = bins[0] as Bin;
  const last = bins[bins.length - 1] as Bin;
  const summary = `${label}: ${bins.map((b) => `${b.label}: ${b.count}`).join(', ')}`;
  return html`<svg class="histogram chart" viewBox=${`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-label=${summary}>
    <title>${summary}</title>
    <${Axes} box=${BOX} xTitle=${xTitle} yTitle="rows"
      y=${[{ at: BOX.bottom, text: '0' }, { at: BOX.top, text: String(top) }]}
      x=${first === last ? [{ at: (BOX.left + BOX.right) / 2, text: first.label }] : [{ at: BOX.left, text: format(first.from), anchor: 'start' }, { at: BOX.right, text: format(last.to), anchor: 'end' }]} />
    ${bins.map(
      (b, i) => html`<rect class="bar" x=${BOX.left + i * step + 1} width=${step - 2} y=${BOX.bottom - height(b.count)} height=${height(b.count)}>
        <title>${b.label}: ${b.count}</title>
      </rect>`,
    )}
  </svg>`;
}
