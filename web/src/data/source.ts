import type { CompareResponse, FlipsResponse, RowDetailResponse, RowIndex, RowResult, RunEvent, RunListItem, RunResponse } from '../api.js';

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
  /** Rows flipped since the previous run of the prompt (the server's; a report has none). */
  flips?(id: string): Promise<FlipsResponse>;
  /** Live events of a running run; returns a function that stops following. */
  followRun?(id: string, since: number, onEvent: (event: RunEvent) => void): () => void;
  followRuns?(onChange: () => void): () => void;
}
