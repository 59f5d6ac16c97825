import type { BatchJobRecord } from '../batch/types.js';
import type { CompareResult } from '../compare/types.js';
import type { ScoredEval } from '../scoring/types.js';
import type { RowResult, RunSummary } from './types.js';

/** What reporters learn about a run. */
export interface RunInfo {
  runId: string;
  runDir: string;
  /** Prompt path relative to the project root. */
  promptPath: string;
  promptName: string;
  model: string;
  evalNames: string[];
  /** Rows × repeats to run, when known up front. */
  total?: number;
  /** Rows already done by an earlier attempt (resume). */
  resumed?: number;
  /** Wall time of the run; known at run-end. */
  durationMs?: number;
  /** ISO 8601. */
  startedAt?: string;
  /** The comparison with a baseline run (`run-experiment --baseline`), added by the CLI at run-end. */
  comparison?: CompareResult;
}

export type RunStatus = 'completed' | 'interrupted' | 'failed';

export type RunEvent =
  | { type: 'run-start'; info: RunInfo }
  /** Something the user should know that does not stop the run (an untyped eval, text outside role tags). */
  | { type: 'warning'; message: string }
  | { type: 'row-start'; index: number; repeat: number }
  | { type: 'eval-end'; index: number; repeat: number; name: string; result: ScoredEval }
  /** What paces the run's requests now (`100 req/s by the provider`), or undefined once nothing does. */
  | { type: 'paced'; paced: string | undefined }
  /** The jobs of a `--batch` run, whenever one of them changes state or counts. */
  | { type: 'batch-progress'; jobs: BatchJobRecord[] }
  /** `replayed`: a row finished by an earlier attempt, sent again on `--resume` so reports cover all rows. */
  | { type: 'row-end'; row: RowResult; replayed?: boolean }
  /**
   * `rows()` reads every row of the run back from its results file in dataset order (index,
   * then repeat), one at a time, a fresh pass each call: reports that list all rows use it
   * instead of keeping them from `row-end`.
   */
  | { type: 'run-end'; info: RunInfo; summary: RunSummary; status: RunStatus; rows: () => AsyncIterable<RowResult> };

export type RunListener = (event: RunEvent) => void | Promise<void>;
