import type { RowResult } from '../experiment/types.js';
import { sampleIndexes } from '../dataset/random.js';
import { voicesDoubt, type Label } from '../review/index.js';
import { judgeVerdict } from '../scoring/agreement/index.js';
import type { QueueFilter, ReviewEval } from './api-types.js';

export const QUEUE_FILTERS: readonly QueueFilter[] = ['all', 'judged', 'doubt', 'sample', 'disagree', 'unreviewed-by-me', 'unreviewed'];
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
  /** `unreviewed-by-me`: whose labels count (the page sends its reviewer). */
  reviewer?: string;
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
  const reviewer = query.get('reviewer')?.trim() ?? '';
  if (filter === 'unreviewed-by-me' && reviewer === '') return '"unreviewed-by-me" needs "reviewer": whose labels count';
  return { filter, ...(name === '' ? {} : { eval: name }), k: Number(k), seed: Number(seed), ...(reviewer === '' ? {} : { reviewer }) };
}

/** Whether a filter needs each row's full result (reasons, verdicts) rather than the index alone. */
export const readsRows = (filter: QueueFilter): boolean => filter !== 'all' && filter !== 'sample';

/** Whether a filter reads the rows' labels (in force: own, carried over, the dataset's). */
export const readsLabels = (filter: QueueFilter): boolean => filter === 'disagree' || filter === 'unreviewed-by-me' || filter === 'unreviewed';

/** A label this reviewer gave (here, or carried over from a run with the same output); not the dataset's. */
export const reviewedBy = (label: Label, reviewer: string | undefined): boolean => !label.fromDataset && label.reviewer === reviewer;

/** Positions `sample` picks out of `count` rows: `k` of them, fixed by the seed. */
export function samplePositions(count: number, query: QueueQuery): number[] {
  return [...sampleIndexes(count, query.k, query.seed)];
}

/**
 * Whether one row belongs in the queue. `judged`: an LLM judge gave it a verdict; `doubt`: a
 * judge's reason voices doubt (DOUBT_WORDS); `disagree`: a person's label differs from the
 * eval's verdict; `unreviewed-by-me`: an eval has no label of this reviewer; `unreviewed`: an
 * eval has no label at all (none given, carried over or in the dataset).
 */
export function rowInQueue(row: RowResult, labels: readonly Label[], evals: readonly ReviewEval[], query: QueueQuery): boolean {
  const wanted = evals.filter((e) => query.eval === undefined || e.name === query.eval);
  if (query.filter === 'judged') return wanted.some((e) => e.judge && judgeVerdict(row.evals[e.name], e.kind) !== undefined);
  if (query.filter === 'doubt') return wanted.some((e) => e.judge && voicesDoubt(row.evals[e.name]?.reason));
  if (query.filter === 'unreviewed-by-me') return wanted.some((e) => e.name in row.evals && !labels.some((label) => label.eval === e.name && reviewedBy(label, query.reviewer)));
  if (query.filter === 'unreviewed') return wanted.some((e) => e.name in row.evals && !labels.some((label) => label.eval === e.name));
  if (query.filter === 'disagree') {
    return wanted.some((e) => {
      const judge = judgeVerdict(row.evals[e.name], e.kind);
      return judge !== undefined && labels.some((label) => label.eval === e.name && label.value !== judge);
    });
  }
  return true;
}
