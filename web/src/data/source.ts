import type { AgreementResponse, CompareResponse, GridResponse, FlipsResponse, LabelBody, QueueResponse, ReviewResponse, ReviewRow, RowDetailResponse, RowIndex, RowResult, RunEvent, RunListItem, RunResponse } from '../api.js';

/**
 * Where the pages get their data: the viewer's HTTP API, or the data inlined in a single-file
 * report. Pages only talk to this, so both show the same pages.
 */
export interface DataSource {
  kind: 'server' | 'report';
  listRuns(): Promise<RunListItem[]>;
  run(id: string): Promise<RunResponse>;
  index(id: string): Promise<RowIndex>;
  /** Full rows at these index positions. */
  rows(id: string, positions: number[]): Promise<Map<number, RowResult>>;
  row(id: string, datasetIndex: number): Promise<RowDetailResponse>;
  /** Positions of rows whose text contains `query` (case-insensitive). */
  search(id: string, query: string): Promise<number[]>;
  /** The two runs compared by the server's comparison engine (never computed here). */
  compare(base: string, head: string): Promise<CompareResponse>;
  /** Runs side by side, the first the base (the server's `buildGrid`, or the report's grid). */
  grid(ids: readonly string[]): Promise<GridResponse>;
  /** Rows flipped since the previous run of the prompt (the server's; a report has none). */
  flips?(id: string): Promise<FlipsResponse>;
  /** Live events of a running run; returns a function that stops following. */
  followRun?(id: string, since: number, onEvent: (event: RunEvent) => void): () => void;
  followRuns?(onChange: () => void): () => void;
  /** Judge–human agreement as the server (or the report, inlined) computed it; null when the report holds none. */
  agreement(id: string): Promise<AgreementResponse | null>;
  /** The evals to label and every label in force (the server's; a report has none). */
  review?(id: string): Promise<ReviewResponse>;
  /** Positions of the rows a review queue walks, filtered by the server. */
  queue?(id: string, query: string): Promise<QueueResponse>;
  /** Writes one label; present only when the served page holds a session (never in a report, nor with --read-only). */
  saveLabel?(id: string, body: LabelBody): Promise<ReviewRow>;
}
