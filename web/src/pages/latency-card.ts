import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useMemo } from 'preact/hooks';
import { ROW_CACHED, ROW_ERRORED, type RowIndex } from '../api.js';
import { Histogram, binValues } from '../components/histogram.js';
import { ms } from '../format.js';

/** Live calls only, like the summary's latency: a cached row's latency is an old call's. */
export function LatencyCard({ columns, count }: { columns: RowIndex; count: number }): VNode {
  const values = useMemo(() => {
    const found: number[] = [];
    for (let p = 0; p < count; p++) {
      const latency = columns.latencyMs[p];
      if (latency !== null && latency !== undefined && !((columns.flags[p] as number) & (ROW_CACHED | ROW_ERRORED))) found.push(latency);
    }
    return found;
  }, [columns, count]);
  return html`<section class="card" aria-labelledby="latency-title">
    <h3 id="latency-title">latency</h3>
    ${values.length === 0 ? html`<p class="muted">no live calls (cached or pre-generated rows)</p>` : html`<${Histogram} bins=${binValues(values, 12, ms)} label="latency of live calls" />`}
  </section>`;
}
