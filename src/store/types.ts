import type { BatchManifest } from '../batch/types.js';
import type { RowResult, RunSummary } from '../experiment/types.js';
import type { RunHandle } from './run-handle.js';
import type { LockOwner } from './run-lock.js';

export type RunStatus = 'running' | 'completed' | 'interrupted' | 'failed';

/** A file the run depended on, fingerprinted so a later look at the run can tell it changed. */
export interface FileFingerprint {
  /** Relative to the project root, with `/` separators. */
  path: string;
  /** sha256 (hex) of the file's text. */
  hash: string;
}

/** How the run was asked to go; kept so `--resume` can continue with the same choices. */
export interface RunOptions {
  concurrency?: number;
  repeat?: number;
  /** The row selection as given (`--rows`, `--sample`/`--seed`, `--split`). */
  selection?: unknown;
  cacheMode?: string;
  threshold?: number;
  timeouts?: Record<string, number>;
  [key: string]: unknown;
}

export interface GitInfo {
  commit: string;
  /** Uncommitted changes outside `.agentmark/`. */
  dirty: boolean;
}

/** `<runs>/<id>/manifest.json`: what was run, with what, and how it ended. */
export interface RunManifest {
  id: string;
  prompt: FileFingerprint & { name: string };
  dataset?: FileFingerprint;
  /** `provider/model`. */
  model: string;
  /** The prompt's model settings as run (temperature, max tokens, ...). */
  settings: Record<string, unknown>;
  options: RunOptions;
  git?: GitInfo;
  /** ISO 8601. */
  startedAt: string;
  endedAt?: string;
  status: RunStatus;
  summary?: RunSummary;
  /** Why an interrupted run stopped, when it was not a signal (the model server became unreachable, or refused the key). */
  stopped?: { reason: 'server-unreachable' | 'auth-failed'; message: string };
  /** Set on a run made with `--shard i/n`: one part of a run that `agentmark merge` puts together. */
  shard?: ShardRecord;
  /** Set on a run built by `agentmark merge` from shards. */
  merged?: MergeRecord;
  /** A `--batch` run's jobs (ids, states, files), so `--resume` and `agentmark batches` find them. */
  batch?: BatchManifest;
}

/**
 * What a shard's manifest records beyond a normal run's, so a merge can recompute the gates
 * exactly and refuse shards that do not belong together (the prompt, dataset, model and
 * settings are the manifest's own fields).
 */
export interface ShardRecord {
  /** 1-based. */
  index: number;
  count: number;
  /** The evals run, in order (none with --skip-eval). */
  evals: string[];
  /** The prompt's `test_settings.score_thresholds`, gated again on the merged rows. */
  scoreThresholds?: Record<string, number>;
  /** Each eval's score range (bounds its mean's interval), as the shard's run used it. */
  scoreRanges?: Record<string, readonly [number, number]>;
  /** Evals whose score schema says `"gate": false`. */
  ungated?: string[];
  /** The prompt's run-level gates (`latency_p95_ms`, `cost_max_usd`, `tokens_max`). */
  runLimits?: { latencyP95Ms?: number; costMaxUsd?: number; tokensMax?: number };
}

/** Where a merged run came from. */
export interface MergeRecord {
  /** How many shards the run was split into. */
  count: number;
  /** The shards merged, by shard index. */
  shards: Array<{ index: number; id: string; rows: number }>;
  /** Shard indexes that were not given (`--allow-partial`); empty when the run is whole. */
  missing: number[];
}

/** Fields a running run may change; the id and what was run stay fixed. */
export type ManifestPatch = Partial<Omit<RunManifest, 'id'>>;

/** What `RunStore.open` gives back to continue a run. */
export interface OpenedRun {
  manifest: RunManifest;
  /** Appends to the existing results file, after any torn last line was dropped. */
  handle: RunHandle;
  /** `rowKey(index, repeat)` of every row already in the results file. */
  done: Set<string>;
  /** Complete rows found in the results file. */
  rowCount: number;
  /** Whether a torn last line was found and cut off. */
  droppedTornLine: boolean;
  /** `rowKey`s of the rows `open`'s `drop` took out of the results file, to be run again. */
  dropped: Set<string>;
  /** Set when the run's lock was left by a killed process and this one took it over. */
  tookOverFrom?: LockOwner;
  /** Streams the rows already stored, in file order. */
  rows(): AsyncIterable<RowResult>;
}

/** The writing side of one run; see `RunHandle`. */
export interface RunHandleLike {
  readonly id: string;
  readonly dir: string;
  readonly manifest: RunManifest;
  /** Queues a row; it is stored once `written` resolves. */
  append(row: RowResult): void;
  written(): Promise<void>;
  updateManifest(patch: ManifestPatch): Promise<RunManifest>;
  close(): Promise<void>;
}
