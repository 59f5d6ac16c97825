import type { Verdict } from '../scoring/agreement/index.js';

/**
 * One line of a run's `annotations.jsonl`: a person's verdict on one eval of one row. Lines are
 * only ever appended; a later line for the same reviewer, row and eval replaces an earlier one,
 * and `cleared` (undo) takes a label back.
 */
export interface AnnotationLine {
  /** The row's identity (a hash of its input, expected output and metadata; see `rowIdentity`). */
  row: string;
  /** Dataset row index and repeat in the run the label was given in. */
  index: number;
  repeat: number;
  /** Hash of the output that was judged: the label follows its row into later runs while it holds. */
  outputHash: string;
  eval: string;
  /** Absent on a `cleared` line. */
  value?: Verdict;
  note?: string;
  reviewer: string;
  /** ISO 8601. */
  at: string;
  cleared?: true;
}

/** A label in force on a row of a run, with where it came from. */
export interface Label {
  eval: string;
  value: Verdict;
  note?: string;
  reviewer: string;
  at: string;
  /** Set when the label was given in an earlier run whose output was the same. */
  carriedFrom?: string;
  /** Set for a verdict written in the dataset row's `labels` (a calibration set). */
  fromDataset?: true;
}
