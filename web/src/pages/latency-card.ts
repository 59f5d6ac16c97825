import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useMemo } from 'preact/hooks';
import { ROW_CACHED, ROW_ERRORED, type RowIndex } from '../api.js';
import { Histogram, binValues } from '../components/histogram.js';
import { ms } from '../format.js';

/**
 * Live calls, like the summary's latency: a cached row's latency is an old call's. A run with no
 * live call (all answers cached) shows the latencies recorded with its cached answers instead,
 * and says so: those are what its rows show.
 */
export function LatencyCard({ columns, count }: { columns: RowIndex; count: number }): VNode {
  const { live, cached } = useMemo(() => {
    const found = { live: [] as number[], cached: [] as number[] };
    for (let p = 0; p < count; p++) {
      const latency = columns.latencyMs[p];
      const flags = columns.flags[p] as number;
      if (latency === null || latency === undefined || flags & ROW_ERRORED) continue;
      (flags & ROW_CACHED ? found.cached : found.live).push(latency);
    }
    return found;
  }, [columns, count]);
  const values = live.length > 0 ? live : cached;
  const what = live.length > 0 ? 'latency of live calls' : 'latency recorded with the cached answers';
  return html`<section class="card latency-card" aria-labelledby="latency-title">
    <h3 id="latency-title">latency</h3>
    ${values.length === 0
      ? html`<p class="muted">no live calls (pre-generated rows)</p>`
      : html`${live.length === 0 ? html`<p class="muted small">no live calls: the ${cached.length} cached answers' recorded latencies</p>` : null}
          <${Histogram} bins=${binValues(values, 12, ms)} label=${what} xTitle="latency" format=${ms} width=${440} />`}
  </section>`;
}
