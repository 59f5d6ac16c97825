import { isBlankLine, readLineBatches } from './read-lines.js';

/**
 * Number of non-blank lines, i.e. the number of row indexes `readDataset` hands out.
 * Does not parse JSON: it is the cheap first pass that lets `--sample` pick its indexes
 * before streaming.
 */
export async function countRows(file: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  for await (const lines of readLineBatches(file, signal)) {
    for (const { bytes } of lines) if (!isBlankLine(bytes)) count++;
  }
  return count;
}
