import { MAX_ROWS_PER_REQUEST, type CompareResponse, type FlipsResponse, type RowDetailResponse, type RowIndex, type RowResult, type RowsResponse, type RunEvent, type RunResponse, type RunsResponse, type SearchResponse } from '../api.js';
import type { DataSource } from './source.js';

async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    // The API explains a 400 (e.g. a run with no summary to compare) in its body.
    const body = (await response.json().catch(() => undefined)) as { error?: string } | undefined;
    throw new Error(body?.error ?? `${path}: ${response.status} ${response.statusText}`);
  }
  return (await response.json()) as T;
}

const enc = encodeURIComponent;

/** The viewer's API on the server that served this page. */
export function httpSource(): DataSource {
  return {
    kind: 'server',
    listRuns: async () => (await get<RunsResponse>('/api/runs')).runs,
    run: (id) => get<RunResponse>(`/api/runs/${enc(id)}`),
    index: (id) => get<RowIndex>(`/api/runs/${enc(id)}/index`),
    async rows(id, positions) {
      const found = new Map<number, RowResult>();
      for (let i = 0; i < positions.length; i += MAX_ROWS_PER_REQUEST) {
        const at = positions.slice(i, i + MAX_ROWS_PER_REQUEST).join(',');
        for (const { position, row } of (await get<RowsResponse>(`/api/runs/${enc(id)}/rows?at=${at}`)).rows) found.set(position, row);
      }
      return found;
    },
    row: (id, index) => get<RowDetailResponse>(`/api/runs/${enc(id)}/rows/${index}`),
    compare: (base, head) => get<CompareResponse>(`/api/compare/${enc(base)}/${enc(head)}`),
    flips: (id) => get<FlipsResponse>(`/api/runs/${enc(id)}/flips`),
    search: async (id, query) => (await get<SearchResponse>(`/api/runs/${enc(id)}/search?q=${enc(query)}`)).positions,
    followRun(id, since, onEvent) {
      const events = new EventSource(`/api/runs/${enc(id)}/events?since=${since}`);
      events.onmessage = (message: MessageEvent<string>) => onEvent(JSON.parse(message.data) as RunEvent);
      return () => events.close();
    },
    followRuns(onChange) {
      const events = new EventSource('/api/events');
      events.onmessage = () => onChange();
      return () => events.close();
    },
  };
}
