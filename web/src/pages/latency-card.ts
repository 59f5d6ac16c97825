import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { IndexEntry } from '../api.js';
import { Histogram, binValues } from '../components/histogram.js';
import { ms } from '../format.js';
import { isCached } from '../row-query.js';

/** Live calls only, like the summary's latency: a cached row's latency is an old call's. */
export function LatencyCard({ entries }: { entries: readonly IndexEntry[] }): VNode {
  const values: number[] = [];
  for (const entry of entries) if (entry[3] !== null && !isCached(entry) && !(entry[2] & 1)) values.push(entry[3]);
  return html`<section class="card" aria-labelledby="latency-title">
    <h3 id="latency-title">latency</h3>
    ${values.length === 0 ? html`<p class="muted">no live calls (cached or pre-generated rows)</p>` : html`<${Histogram} bins=${binValues(values, 12, ms)} label="latency of live calls" />`}
  </section>`;
}
