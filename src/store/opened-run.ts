import type { RowResult } from '../experiment/types.js';
import type { RowKeySet } from './row-key-set.js';
import type { RunHandle } from './run-handle.js';
import type { LockOwner } from './run-lock.js';
import type { RunManifest } from './types.js';

/** What `RunStore.open` gives back to continue a run. */
export interface OpenedRun {
  manifest: RunManifest;
  /** Appends to the existing results file, after any torn last line was dropped. */
  handle: RunHandle;
  /** The (index, repeat) of every row already in the results file: a bit a row, not a string. */
  done: RowKeySet;
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
