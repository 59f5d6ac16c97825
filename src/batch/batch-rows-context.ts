import type { Tool } from 'ai';
import type { DatasetRow } from '../dataset/types.js';
import type { RunListener } from '../experiment/events.js';
import type { BatchRunOptions } from '../experiment/options.js';
import type { RowPipeline } from '../experiment/row-pipeline.js';
import type { RowResult } from '../experiment/types.js';
import type { ModelPrice, ModelRequest, ModelResponse } from '../model/types.js';
import type { JudgeTransport } from '../experiment/types.js';
import type { RunHandleLike } from '../store/index.js';
import { DEFAULT_LIMITS, type BatchLimits } from './request-parts.js';

export interface BatchSettings {
  limits: BatchLimits;
  /** First wait between polls, ms. */
  pollMs: number;
}

/** The run's `--batch` options with their defaults. */
export function batchSettingsOf(batch: BatchRunOptions): BatchSettings {
  return {
    limits: { maxRequests: batch.maxRequests ?? DEFAULT_LIMITS.maxRequests, maxBytes: batch.maxBytes ?? DEFAULT_LIMITS.maxBytes },
    pollMs: batch.pollMs ?? 30_000,
  };
}

export interface BatchRowsContext {
  handle: RunHandleLike;
  pipeline: RowPipeline;
  /** A model call through the run's response cache, with `live` in place of the HTTP call. */
  callWith: (request: ModelRequest, repeat: number, live: () => Promise<ModelResponse>) => Promise<ModelResponse>;
  /** Runs `fn` with judge calls that miss the response cache answered by `live` instead of an HTTP call. */
  judgeWith: <T>(live: JudgeTransport, fn: () => Promise<T>) => Promise<T>;
  /** `--judge-live`: judge calls stay live HTTP calls, as each batch answer is scored. */
  judgeLive: boolean;
  /** The rows × repeats still to run, a fresh pass per call (the dataset is streamed again). */
  items: () => AsyncIterable<{ row: DatasetRow; repeat: number }>;
  record: (row: RowResult) => Promise<void>;
  /** Rows whose earlier batch attempt failed (`--resume`): they are sent again. */
  retry: ReadonlySet<string>;
  concurrency: number;
  /** Stops dispatching and polling (Ctrl-C); the jobs keep running on the server. */
  dispatch: AbortSignal;
  /** Aborts rows in flight. */
  rowSignal: AbortSignal;
  emit: RunListener;
  settings: BatchSettings;
  env: NodeJS.ProcessEnv;
  /** The run's model (`provider/model`): its provider picks the batch API. */
  modelName: string;
  /** The user's project, where `@ai-sdk/anthropic` is installed. */
  projectRoot: string;
  configBaseURL: string | undefined;
  tools: Record<string, Tool>;
  prices: Record<string, ModelPrice>;
}

