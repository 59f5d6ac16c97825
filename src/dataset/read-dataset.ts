import { TextDecoder } from 'node:util';
import { DatasetError } from '../errors/index.js';
import { compileInputSchema } from '../prompt/input-validator.js';
import { parseRow } from './parse-row.js';
import { isBlankLine, readLineBatches } from './read-lines.js';
import type { DatasetRow } from './types.js';

export interface ReadDatasetOptions {
  /** The prompt's `input_schema`; each row's `input` must match it. */
  inputSchema?: object;
  /**
   * Receives each bad line, which is then skipped so reading goes on (how `validate` lists
   * every problem). Without it, the first bad line throws.
   */
  onError?: (error: DatasetError) => void;
  signal?: AbortSignal;
  /** Every chunk of the file's bytes, in order, as it is read (the run's fingerprint of the file, hashed in the same read). */
  onChunk?: (chunk: Buffer) => void;
}

/**
 * Streams a JSONL dataset's rows in file order, in constant memory whatever the file size.
 * `index` counts non-blank lines, bad ones included, so that indexes (and therefore
 * `--rows`, `--sample` and `--split`) do not shift when a line is fixed.
 * Throws DATASET_NOT_FOUND for a missing file and DATASET_EMPTY when no line holds a row.
 */
export async function* readDataset(file: string, options: ReadDatasetOptions = {}): AsyncGenerator<DatasetRow, void, undefined> {
  // Each line is parsed as its row is taken, not a chunk's rows at once: a run takes rows as its
  // workers free up, so a chunk's ~4,000 parsed rows lived until the last of them ran — long enough
  // to be promoted to the old generation (~500 bytes a row of what a fast run's main thread
  // promoted, 10,000 rows). The chunk's raw lines are all that waits.
  const validateInput = options.inputSchema ? await compileInputSchema(options.inputSchema) : undefined;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let index = 0;
  for await (const lines of readLineBatches(file, options.signal, options.onChunk)) {
    for (const { line, bytes } of lines) {
      if (isBlankLine(bytes)) continue;
      let row: DatasetRow;
      try {
        row = parseRow(bytes, { file, line, index: index++, decoder, validateInput });
      } catch (error) {
        if (error instanceof DatasetError && options.onError) {
          options.onError(error);
          continue;
        }
        throw error;
      }
      yield row;
    }
  }
  if (index === 0) throw emptyDataset(file);
}

/**
 * `readDataset` the rows of a chunk of the file at a time (see `readLineBatches`), for the
 * readers that take every row: the same rows, errors and order. A bad line that throws (no
 * `onError`) ends the batch: the rows before it come first, then the error.
 */
export async function* readDatasetBatches(file: string, options: ReadDatasetOptions = {}): AsyncGenerator<DatasetRow[], void, undefined> {
  const validateInput = options.inputSchema ? await compileInputSchema(options.inputSchema) : undefined;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let index = 0;
  for await (const lines of readLineBatches(file, options.signal, options.onChunk)) {
    const rows: DatasetRow[] = [];
    for (const { line, bytes } of lines) {
      if (isBlankLine(bytes)) continue;
      try {
        rows.push(parseRow(bytes, { file, line, index: index++, decoder, validateInput }));
      } catch (error) {
        if (error instanceof DatasetError && options.onError) {
          options.onError(error);
          continue;
        }
        if (rows.length > 0) yield rows;
        throw error;
      }
    }
    if (rows.length > 0) yield rows;
  }
  if (index === 0) throw emptyDataset(file);
}

function emptyDataset(file: string): DatasetError {
  return new DatasetError('DATASET_EMPTY', 'dataset has no rows', {
    location: { file },
    hint: 'add one JSON object per line, e.g. {"input": {"name": "Ada"}}',
  });
}
