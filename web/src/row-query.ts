import { ROW_CACHED, ROW_ERRORED, ROW_FAILED, type IndexEntry } from './api.js';

export type RowFilter = 'all' | 'failed' | 'errored' | 'flaky';

export interface RowQuery {
  filter: RowFilter;
  /** Only rows with this verdict on this eval. */
  evalIndex?: number;
  verdict?: string;
  /** `position` keeps finish order; `index` dataset order; `eval:N` eval N's score. */
  sort: 'position' | 'index' | 'latency' | 'cost' | `eval:${number}`;
  descending: boolean;
  /** Positions matching the search text, when there is one. */
  matches?: ReadonlySet<number>;
}

export const defaultQuery: RowQuery = { filter: 'all', sort: 'index', descending: false };

function sortValue(entry: IndexEntry, sort: RowQuery['sort']): number | null {
  if (sort === 'index') return entry[0] * 1e4 + entry[1];
  if (sort === 'latency') return entry[3];
  if (sort === 'cost') return entry[4];
  if (sort.startsWith('eval:')) return entry[6][Number(sort.slice(5))] ?? null;
  return null;
}

/**
 * The positions the table shows, in order. Rows without a value for the sort key go last either
 * way, so "highest latency first" never opens on cached rows.
 */
export function applyQuery(entries: readonly IndexEntry[], query: RowQuery, flaky: ReadonlySet<number>): number[] {
  const positions: number[] = [];
  for (let p = 0; p < entries.length; p++) {
    const entry = entries[p] as IndexEntry;
    const flags = entry[2];
    if (query.filter === 'failed' && !(flags & ROW_FAILED)) continue;
    if (query.filter === 'errored' && !(flags & ROW_ERRORED)) continue;
    if (query.filter === 'flaky' && !flaky.has(entry[0])) continue;
    if (query.evalIndex !== undefined && query.verdict !== undefined && entry[5][query.evalIndex] !== query.verdict) continue;
    if (query.matches && !query.matches.has(p)) continue;
    positions.push(p);
  }
  if (query.sort === 'position') return query.descending ? positions.reverse() : positions;
  const keys = new Float64Array(entries.length);
  const missing = new Uint8Array(entries.length);
  for (const p of positions) {
    const value = sortValue(entries[p] as IndexEntry, query.sort);
    if (value === null) missing[p] = 1;
    else keys[p] = value;
  }
  const sign = query.descending ? -1 : 1;
  return positions.sort((a, b) => missing[a]! - missing[b]! || sign * ((keys[a] as number) - (keys[b] as number)) || a - b);
}

export const isCached = (entry: IndexEntry): boolean => (entry[2] & ROW_CACHED) !== 0;
