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

/** Which rows of a dataset to run (format.md section 5); at most one of the three. */
export type RowSelection =
  | { kind: 'all' }
  | { kind: 'rows'; ranges: Array<[number, number]> }
  | { kind: 'sample'; count: number; seed: number }
  | { kind: 'split'; name: string; percent: number; seed: number };
