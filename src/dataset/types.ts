/** One dataset row as handed to the runner and to scorers. */
export interface DatasetRow {
  /** Zero-based index among the file's rows (blank lines do not count). */
  index: number;
  /** 1-based line number in the file. */
  line: number;
  input: Record<string, unknown>;
  /** The row's `expected_output`; `hasExpectedOutput` tells absent from null. */
  expectedOutput?: unknown;
  hasExpectedOutput: boolean;
  /** Every key other than input, expected_output and output. */
  metadata: Record<string, unknown>;
  /** A pre-generated output to score without calling a model. */
  output?: unknown;
  hasOutput: boolean;
}

/**
 * Which rows of a dataset to run (format.md section 5); at most one kind per run.
 *
 * - `rows`: `--rows 0,3-5,9`.
 * - `percent`: `--sample <percent>` (AgentMark's meaning): a seeded random `percent`% of the rows.
 * - `sample`: `--sample-rows <n>`: a seeded random `count` rows.
 * - `limit`: `--limit <n>`: the first `count` rows.
 * - `split`: `--split train:80` / `test:80`: `percent` is always the train portion. With a seed each
 *   row's portion comes from a hash of its index; without one the first `percent`% of the rows
 *   are train (AgentMark's positional split).
 */
export type RowSelection =
  | { kind: 'all' }
  | { kind: 'rows'; ranges: Array<[number, number]> }
  | { kind: 'percent'; percent: number; seed: number }
  | { kind: 'sample'; count: number; seed: number }
  | { kind: 'limit'; count: number }
  | { kind: 'split'; name: 'train' | 'test'; percent: number; seed?: number };
