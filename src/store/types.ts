import type { BatchManifest } from '../batch/types.js';
import type { ScoreSchema } from '../project/types.js';
import type { RowResult, RunSummary } from '../experiment/types.js';

/**
 * `partial`: a merge of some shards only (`--allow-partial`); `latest` never picks it.
 * `abandoned`: read from a team store, never written: a `running` run whose writer stopped its
 * heartbeat (see ABANDONED_AFTER_MS in heartbeat.ts); nothing picks it as a baseline.
 */
export type RunStatus = 'running' | 'completed' | 'interrupted' | 'failed' | 'partial' | 'abandoned';

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
  /** The branch checked out (absent on a detached HEAD and on runs made before it was kept): `@main` finds runs by it. */
  branch?: string;
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
  /**
   * Read from a team store, never written to a manifest: when the writer of an `abandoned` run
   * was last heard from there (ISO 8601, the database's clock).
   */
  heartbeatAt?: string;
  summary?: RunSummary;
  /** Why an interrupted run stopped, when it was not a signal (the model server became unreachable, or refused the key). */
  stopped?: { reason: 'server-unreachable' | 'auth-failed' | 'quota-exceeded'; message: string };
  /** Set on a run made with `--shard i/n`: one part of a run that `agentmark merge` puts together. */
  shard?: ShardRecord;
  /** Set on a run built by `agentmark merge` from shards. */
  merged?: MergeRecord;
  /** A `--batch` run's jobs (ids, states, files), so `--resume` and `agentmark batches` find them. */
  batch?: BatchManifest;
  // --- provenance (issue 26): what made the run, so it can be shown and run again ---
  /** The prompt's files and the project's config as they were; absent on runs made before. */
  provenance?: RunProvenance;
  // --- end provenance ---
  // --- results integrity (issue 23) ---
  /**
   * What the results file held when the run ended, checked by every reader (merge, compare,
   * `runs show`, the viewer). Absent on runs stored before it existed (nothing to check) and on
   * runs whose results file could not be written whole.
   */
  integrity?: ResultsIntegrity;
  /** Why a `failed` run failed, when it is known (a write error: the file and its cause). */
  failure?: { code: string; message: string };
  // --- end results integrity ---
}

/**
 * What a run was made from, beyond `prompt`, `dataset`, `model`, `settings` and `options`
 * (which already hold the dataset's hash and the resolved model settings): the text of every
 * file the prompt loaded, kept in `.agentmark/blobs/` by hash, and the config's hashes.
 */
export interface RunProvenance {
  /**
   * The prompt file first, then every file it read (imported components, schema `$ref` files),
   * relative to the project root; each hash names the file's text in `.agentmark/blobs/`.
   */
  files: FileFingerprint[];
  /** `agentmark.json`, then the `agentmark.config.*` file when the project has one. */
  config: FileFingerprint[];
  /** Set on a run made by `agentmark rerun`: the id of the run whose stored prompt it ran. */
  rerunOf?: string;
}

/** A results file's line count and the sha256 of its lines (each with its `\n`), in file order. */
export interface ResultsIntegrity {
  rows: number;
  sha256: string;
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
  /**
   * The shard group (`--shard-group`, AGENTMARK_SHARD_GROUP, or one derived from what was run), set
   * when the run had a team store or a group was given: the shards of one group are merged in the
   * store (`agentmark merge --store <group>`).
   */
  group?: string;
  /** The evals run, in order (none with --skip-eval). */
  evals: string[];
  /** The prompt's `test_settings.score_thresholds`, gated again on the merged rows. */
  scoreThresholds?: Record<string, number>;
  /** Each eval's score range (bounds its mean's interval), as the shard's run used it. */
  scoreRanges?: Record<string, readonly [number, number]>;
  /** Evals whose score schema says `"gate": false`. */
  ungated?: string[];
  /** The evals' score schemas as the run read them: judge–human agreement compares verdicts by their type. */
  schemas?: Record<string, ScoreSchema>;
  /** The prompt's `test_settings.judge_min_agreement`, gated again on the merged rows. */
  judgeMinAgreement?: Record<string, number>;
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
  /** The shard group merged, when the shards came from the store (`merge --store <group>`): one merged run per group. */
  group?: string;
}

/** Fields a running run may change; the id and what was run stay fixed. */
export type ManifestPatch = Partial<Omit<RunManifest, 'id'>>;

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
