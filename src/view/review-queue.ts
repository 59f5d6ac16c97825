import type { RowResult } from '../experiment/types.js';
import { sampleIndexes } from '../dataset/random.js';
import { voicesDoubt, type Label } from '../review/index.js';
import { judgeVerdict } from '../scoring/agreement/index.js';
import type { QueueFilter, ReviewEval } from './api-types.js';

export const QUEUE_FILTERS: readonly QueueFilter[] = ['all', 'judged', 'doubt', 'sample', 'disagree'];
/** A sample's size when the page does not say. */
export const DEFAULT_SAMPLE = 20;
export const MAX_SAMPLE = 10_000;

export interface QueueQuery {
  filter: QueueFilter;
  /** Only this eval (judged, doubt, disagree); else any. */
  eval?: string;
  /** `sample`: how many rows, and the seed that picks them. */
  k: number;
  seed: number;
}

/** Reads `filter`, `eval`, `k` and `seed` from a query string; a problem is a message for a 400. */
export function parseQueueQuery(query: URLSearchParams, evals: readonly ReviewEval[]): QueueQuery | string {
  const filter = (query.get('filter') ?? 'all') as QueueFilter;
  if (!QUEUE_FILTERS.includes(filter)) return `"filter" is one of ${QUEUE_FILTERS.join(', ')}`;
  const name = query.get('eval') ?? '';
  if (name !== '' && !evals.some((e) => e.name === name)) return `no eval "${name}" in this run`;
  const k = query.get('k') ?? String(DEFAULT_SAMPLE);
  const seed = query.get('seed') ?? '0';
  if (!/^\d{1,5}$/.test(k) || Number(k) > MAX_SAMPLE) return `"k" is a whole number of rows up to ${MAX_SAMPLE}`;
  if (!/^\d{1,9}$/.test(seed)) return '"seed" is a whole number';
  return { filter, ...(name === '' ? {} : { eval: name }), k: Number(k), seed: Number(seed) };
}

/** Whether a filter needs each row's full result (reasons, verdicts) rather than the index alone. */
export const readsRows = (filter: QueueFilter): boolean => filter === 'judged' || filter === 'doubt' || filter === 'disagree';

/** Positions `sample` picks out of `count` rows: `k` of them, fixed by the seed. */
export function samplePositions(count: number, query: QueueQuery): number[] {
  return [...sampleIndexes(count, query.k, query.seed)];
}

/**
 * Whether one row belongs in the queue. `judged`: an LLM judge gave it a verdict; `doubt`: a
 * judge's reason voices doubt (DOUBT_WORDS); `disagree`: a person's label differs from the
 * eval's verdict.
 */
export function rowInQueue(row: RowResult, labels: readonly Label[], evals: readonly ReviewEval[], query: QueueQuery): boolean {
  const wanted = evals.filter((e) => query.eval === undefined || e.name === query.eval);
  if (query.filter === 'judged') return wanted.some((e) => e.judge && judgeVerdict(row.evals[e.name], e.kind) !== undefined);
  if (query.filter === 'doubt') return wanted.some((e) => e.judge && voicesDoubt(row.evals[e.name]?.reason));
  if (query.filter === 'disagree') {
    return wanted.some((e) => {
      const judge = judgeVerdict(row.evals[e.name], e.kind);
      return judge !== undefined && labels.some((label) => label.eval === e.name && label.value !== judge);
    });
  }
  return true;
}
