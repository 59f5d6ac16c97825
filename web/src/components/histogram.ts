import { html } from 'htm/preact';
import type { VNode } from 'preact';

export interface Bin {
  label: string;
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
  if (min === max) return [{ label: format(min), count: values.length }];
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(Math.floor((v - min) / width), bins - 1)]! += 1;
  return counts.map((count, i) => ({ label: `${format(min + i * width)}–${format(min + (i + 1) * width)}`, count }));
}

/** Bars as SVG; each bar has a title with its range and count, and the whole a text summary. */
export function Histogram({ bins, label }: { bins: Bin[]; label: string }): VNode {
  if (bins.length === 0) return html`<p class="muted">no values</p>`;
  const top = Math.max(...bins.map((b) => b.count));
  const width = 100 / bins.length;
  const summary = `${label}: ${bins.map((b) => `${b.label}: ${b.count}`).join(', ')}`;
  return html`<svg class="histogram" viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label=${summary}>
    <title>${summary}</title>
    ${bins.map(
      (b, i) => html`<rect class="bar" x=${i * width + 0.5} width=${width - 1} y=${40 - (b.count / top) * 38} height=${(b.count / top) * 38}>
        <title>${b.label}: ${b.count}</title>
      </rect>`,
    )}
  </svg>`;
}
