import type { RowResult } from '../experiment/types.js';
import { RunStoreError, type RunStorage } from '../store/index.js';
import type { ResultsIntegrity, RunManifest } from '../store/types.js';
import type { StoreRun } from '../view/run-catalog.js';

/**
 * A completed run read from the team store a page at a time (src/view/run-catalog.ts's
 * StoreRuns): its view index as the store keeps it, its rows by their place in finish order. The
 * store drops a run's index whenever one of its rows is edited (migration 30), and every read
 * asks for the index in the same statement as the rows: once it is gone the run is a
 * STORE_RESULTS_MISMATCH (409), as a run folder whose file no longer matches its record is.
 */
export async function openStoreRun(storage: RunStorage, manifest: RunManifest): Promise<StoreRun | undefined> {
  const integrity = manifest.integrity;
  if (integrity === undefined || storage.storedViewColumns === undefined || storage.linesAt === undefined) return undefined;
  const text = await storage.storedViewColumns(manifest.id, integrity);
  if (text === undefined) throw changed(storage, manifest.id);
  const linesAt = storage.linesAt.bind(storage);
  return {
    columnsJson: text,
    async check(): Promise<void> {
      if ((await linesAt(manifest.id, [], integrity)) === undefined) throw changed(storage, manifest.id);
    },
    async rowsAt(positions: readonly number[]): Promise<RowResult[]> {
      if (positions.length === 0) return [];
      const lines = await linesAt(manifest.id, positions, integrity);
      if (lines === undefined) throw changed(storage, manifest.id);
      return lines.map((line, k) => parseRow(line, storage, manifest.id, positions[k] as number, integrity));
    },
  };
}

function changed(storage: RunStorage, id: string): RunStoreError {
  return new RunStoreError('STORE_RESULTS_MISMATCH', `the rows of run ${id} in the store changed after it was completed`, {
    location: { file: `${storage.location} (run ${id})` },
    hint: '`agentmark store check` names the runs whose rows no longer match their integrity record',
  });
}

function parseRow(line: string, storage: RunStorage, id: string, place: number, integrity: ResultsIntegrity): RowResult {
  try {
    const row = JSON.parse(line) as RowResult;
    if (typeof row === 'object' && row !== null && typeof row.index === 'number') return row;
  } catch {
    // reported below
  }
  throw new RunStoreError('STORE_CORRUPT_RESULTS', `line ${place + 1} of ${integrity.rows} of run ${id} is not a result row`, { location: { file: `${storage.location} (run ${id})` } });
}
