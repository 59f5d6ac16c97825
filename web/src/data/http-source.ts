import { MAX_ROWS_PER_REQUEST, SESSION_TOKEN_HEADER, type AgreementResponse, type LabelBody, type QueueResponse, type ReviewResponse, type ReviewRow, type CompareResponse, type GridResponse, type FlipsResponse, type RowDetailResponse, type RowIndex, type RowResult, type RowsResponse, type RunEvent, type RunResponse, type RunsResponse, type SearchResponse } from '../api.js';
import type { DataSource } from './source.js';
import { readSession } from './review-session.js';

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

/** A write: POST, JSON, with the page's session token (the server refuses anything else). */
async function post<T>(path: string, token: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', [SESSION_TOKEN_HEADER]: token },
    body: JSON.stringify(body),
  });
  const reply = (await response.json().catch(() => undefined)) as (T & { error?: string }) | undefined;
  if (!response.ok || reply === undefined) throw new Error(reply?.error ?? `${path}: ${response.status} ${response.statusText}`);
  return reply;
}

/** The viewer's API on the server that served this page. */
export function httpSource(): DataSource {
  const session = readSession();
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
    grid: (ids) => get<GridResponse>(`/api/grid/${ids.map(enc).join('/')}`),
    flips: (id) => get<FlipsResponse>(`/api/runs/${enc(id)}/flips`),
    search: async (id, query) => (await get<SearchResponse>(`/api/runs/${enc(id)}/search?q=${enc(query)}`)).positions,
    followRun(id, since, onEvent) {
      const events = new EventSource(`/api/runs/${enc(id)}/events?since=${since}`);
      events.onmessage = (message: MessageEvent<string>) => onEvent(JSON.parse(message.data) as RunEvent);
      return () => events.close();
    },
    agreement: (id) => get<AgreementResponse>(`/api/runs/${enc(id)}/agreement`),
    review: (id) => get<ReviewResponse>(`/api/runs/${enc(id)}/review`),
    queue: (id, query) => get<QueueResponse>(`/api/runs/${enc(id)}/queue?${query}`),
    ...(session ? { saveLabel: (id: string, body: LabelBody) => post<ReviewRow>(`/api/runs/${enc(id)}/labels`, session.token, body) } : {}),
    followRuns(onChange) {
      const events = new EventSource('/api/events');
      events.onmessage = () => onChange();
      return () => events.close();
    },
  };
}
