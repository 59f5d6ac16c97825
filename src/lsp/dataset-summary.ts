import { countRows, readDataset, type DatasetRow } from '../dataset/index.js';

export interface DatasetSummary {
  /** Rows as validate and runs count them (non-blank lines). */
  rows: number;
  first: DatasetRow[];
  /** Rows with an `expected_output` or human `labels`. */
  labelled: number;
}

/** What a hover on a dataset path tells, read by the dataset loader (through the editor's buffers). */
export async function datasetSummary(path: string, firstCount = 3): Promise<DatasetSummary> {
  const rows = await countRows(path).catch(() => 0);
  const first: DatasetRow[] = [];
  let labelled = 0;
  try {
    for await (const row of readDataset(path, { onError: () => undefined })) {
      if (first.length < firstCount) first.push(row);
      if (row.hasExpectedOutput || row.metadata['labels'] !== undefined) labelled++;
    }
  } catch {
    // an empty or missing file: the count says so
  }
  return { rows, first, labelled };
}
