import type { AnnotationLine } from '../review/types.js';
import type { LineBatch } from './line-batch.js';
import type { RowIndex } from './row-index-types.js';
import type { StoredLine } from './stored-run.js';
import type { ManifestPatch, ResultsIntegrity, RunManifest, RunStatus } from './types.js';

/** Which back end holds the runs: today's `.agentmark/` folder (the default) or a PostgreSQL database. */
export type StorageKind = 'local' | 'postgres';

/** Where a reader of the store's changes stopped: the last change number seen, and the transactions still open then. */
export interface ChangeCursor {
  seq: number;
  /** Ids of the transactions open when it looked: changes they commit later may carry numbers below `seq`. */
  open: readonly string[];
}

/** A run created or changed: its manifest, its change number, and the record its kept view index describes (none: no index). */
export interface ChangedRun {
  manifest: RunManifest;
  change: number;
  viewIndex?: ResultsIntegrity;
}

export interface StoreChanges {
  /** Oldest change first. A run changed by a transaction still open at the last look may be given again. */
  runs: ChangedRun[];
  /** Runs deleted (not there now); a run deleted and made again is in both lists. */
  deleted: string[];
  next: ChangeCursor;
}

/** Which runs `listRuns` gives; every field narrows. */
export interface RunQuery {
  /** At most this many, newest first. @default all */
  limit?: number;
  /** Runs whose id starts with this (a run named by a prefix of its id). */
  idPrefix?: string;
  /** The prompt file's path as the manifest records it (relative, `/` separators). */
  promptPath?: string;
  /** The git branch the run was made on. */
  branch?: string;
  /** A git commit, or a prefix of one (4 characters at least). */
  commit?: string;
  status?: RunStatus;
}

/**
 * The one storage contract of runs (issue 37): every command and the viewer reach runs, their
 * rows, manifests, integrity records, view index, blobs and annotations through it, and nothing
 * above `src/store/` knows which back end is in use. Both back ends pass one contract suite
 * (test/store/storage-contract.test.ts).
 *
 * Rows are kept as the JSON line the run wrote (without its `\n`), in finish order: the integrity
 * record (count + sha256 of the lines, each with its `\n`) is then the same on both back ends, and a
 * NUL in a row's text is stored as JSON writes it (`\u0000`), which PostgreSQL's text can hold.
 */
export interface RunStorage extends AsyncDisposable {
  readonly kind: StorageKind;
  /** Where the runs are, safe to print: a folder, or a database URL with its password masked. */
  readonly location: string;

  // --- runs ---
  /** Manifests, newest first (ids start with their UTC start time). */
  listRuns(query?: RunQuery): Promise<RunManifest[]>;
  /** The run's manifest, or undefined when there is no such run. */
  getRun(id: string): Promise<RunManifest | undefined>;
  /** Stores a new run with no rows (STORE_BAD_RUN_ID, STORE_RUN_EXISTS). */
  createRun(manifest: RunManifest): Promise<void>;
  /** Shallow-merges `patch` into the manifest (USAGE_UNKNOWN_RUN when there is no such run). */
  updateRun(id: string, patch: ManifestPatch): Promise<RunManifest>;
  /**
   * Says the run's writer is alive (a streaming `run-experiment` between batches; each
   * `appendRows` says it too). In the team store, a `running` run not heard from for
   * ABANDONED_AFTER_MS is listed and got as `abandoned`; the local folder tells a dead writer by its
   * lock (withLiveStatus), so there this does nothing.
   */
  touchRun(id: string): Promise<void>;
  /** Deletes the run, its rows and its labels; false when there was none. */
  removeRun(id: string): Promise<boolean>;

  // --- shard groups (`--shard i/n` runs merged in the store) ---
  /** The runs whose manifest's `shard.group` is `group`, any status, newest first. */
  listShards(group: string): Promise<RunManifest[]>;
  /** The run `merge --store` made of `group` (its `merged.group`), any status; undefined when none. */
  mergedRunOf(group: string): Promise<RunManifest | undefined>;
  /**
   * Waits until this process alone holds the group's lock, across processes and machines (the
   * database's advisory lock; a lock file locally), and gives back its release: of two last shards
   * finishing together, one merges and the other then finds the merged run.
   */
  lockShardGroup(group: string): Promise<() => Promise<void>>;

  // --- rows ---
  /**
   * Stores `lines` as the run's lines `from`, `from + 1`, ... in finish order. Lines already stored
   * at those places are kept, not doubled (a push or a stream retried after a kill), so a call may
   * be repeated; a gap (from beyond the stored count) is STORE_ROWS_GAP. Returns how many were new.
   */
  appendRows(id: string, from: number, lines: readonly string[]): Promise<number>;
  /**
   * Lines already stored at places `from`, `from + 1`, ... (a killed or a concurrent copy sent
   * them), given so the completion can check them where they are; nothing is sent. Optional: a
   * back end without it checks every stored line itself at the completion.
   */
  noteStoredLines?(id: string, from: number, lines: readonly string[]): void;
  /**
   * appendRows of lines as bytes (`batch.first` is `from`): what `runs push` sends from a results
   * file, never decoded to strings. Optional: a copy to a back end without it sends strings.
   */
  appendLineBatch?(id: string, batch: LineBatch): Promise<number>;
  /** noteStoredLines of lines as bytes. Optional, beside appendLineBatch. */
  noteStoredBatch?(id: string, batch: LineBatch): void;
  /**
   * readLines as batches of whole lines' bytes, read from the results file as they are (none
   * decoded). Optional: a source without it is copied line by line.
   */
  readLineBatches?(id: string, from?: number): AsyncGenerator<LineBatch>;
  /** How many lines are stored (what the next `appendRows` starts from). */
  rowCount(id: string): Promise<number>;
  /**
   * The stored lines (without their `\n`) in finish order from line `from` on, a page at a time
   * and unchecked: what a copy of the run to another store sends (its integrity record is then
   * checked where it lands).
   */
  readLines(id: string, from?: number): AsyncGenerator<string>;
  /**
   * Every row in dataset order (index, then repeat) with its line, read a page at a time, after the
   * rows were checked against the integrity record (the STORE_RESULTS_* / STORE_DUPLICATE_ROW errors).
   */
  readRows(id: string): AsyncGenerator<StoredLine>;

  // --- integrity record ---
  /** Count and sha256 of the stored lines as they are now. */
  integrityOf(id: string): Promise<ResultsIntegrity>;
  /**
   * Ends the run: records `integrity` with the patch (status `completed`, a summary, ...) only when
   * the stored lines match it; otherwise STORE_RESULTS_MISMATCH and the run is left as it was.
   */
  complete(id: string, patch: ManifestPatch & { integrity: ResultsIntegrity }): Promise<RunManifest>;
  /** Throws the integrity error of a run whose stored rows no longer match its record. */
  checkRun(id: string): Promise<void>;
  /**
   * Whether the run's stored lines are exactly `lines` (a source run's, hashed as they are read),
   * checked where they are stored: the database hashes its rows by ranges of places, so only
   * digests cross the wire. False too when `lines` do not match `integrity`. Optional: a back end
   * without it is not checked so (`runs push` then takes a completed copy with the same record as
   * it is).
   */
  storedLinesMatch?(id: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity): Promise<boolean>;
  /**
   * Replaces every stored line of the run by `lines` in one transaction, committed only when they
   * match `integrity` (else STORE_RESULTS_MISMATCH, nothing changed): a completed copy found
   * damaged is repaired in place, its manifest, labels and blobs kept. `viewColumnsJson`, the view
   * index of those lines, is kept in the same transaction, so no reader sees the repaired run
   * without it (`serve` would copy the run whole meanwhile).
   */
  replaceLines?(id: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity, viewColumnsJson?: string): Promise<void>;

  // --- view index ---
  /** The viewer's rows table of a completed run, in finish order; undefined when none can be trusted. */
  viewColumns(id: string): Promise<RowIndex | undefined>;
  /** viewColumns as the JSON text the viewer sends, made without parsing the columns (a back end without it: JSON.stringify of viewColumns). */
  viewColumnsJson?(id: string): Promise<string | undefined>;
  /** Keeps `columnsJson` (a RowIndex as JSON), the view index of the completed run's rows (`integrity`), for the readers below (a back end without them has none). */
  putViewColumns?(id: string, columnsJson: string, integrity: ResultsIntegrity): Promise<void>;
  /** The kept view index of the run's rows as JSON text, while they are still those of `integrity`. */
  storedViewColumns?(id: string, integrity: ResultsIntegrity): Promise<string | undefined>;
  /** Lines at these places in finish order, while the kept view index for `integrity` stands; else undefined. */
  linesAt?(id: string, places: readonly number[], integrity: ResultsIntegrity): Promise<string[] | undefined>;

  // --- following changes ---
  /**
   * What changed since `after` (undefined: every run there is): runs created or changed, each with
   * its change number and the record its kept view index describes, the ids of runs deleted, and
   * where the next call goes on from. A change committed late (a long transaction) is still given.
   */
  runsChangedAfter?(after: ChangeCursor | undefined): Promise<StoreChanges>;
  /**
   * A run's manifest, change number and stored lines read in one snapshot of the store, so a copy
   * never holds some rows from before a change (a repair, `replaceLines`) and some from after;
   * undefined when there is no such run. The lines can be read only until `use` resolves.
   */
  readSnapshot?<T>(id: string, use: (run: { manifest: RunManifest; change: number }, lines: AsyncIterable<string>) => Promise<T>): Promise<T | undefined>;

  // --- blobs ---
  /** Stores a text under its sha256 (once, however many runs use it); gives back the hash. */
  putBlob(text: string): Promise<string>;
  /** The text stored under `hash` (STORE_BLOB_MISSING, STORE_BLOB_CHANGED). */
  getBlob(hash: string): Promise<string>;

  // --- annotations ---
  appendAnnotations(id: string, lines: readonly AnnotationLine[]): Promise<void>;
  /** Every label line of the run, oldest first. */
  readAnnotations(id: string): Promise<AnnotationLine[]>;

  close(): Promise<void>;
}
