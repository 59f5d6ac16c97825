import { rm } from 'node:fs/promises';
import type { RunStorage } from '../store/index.js';
import type { RunManifest } from '../store/types.js';
import { appendLines, appendStoreLines, finishCopy, startCopy, writeCopiedChange, writeCopiedManifest } from './run-copy.js';

/**
 * Runs snapshot reads one at a time: each holds a connection of the store's pool (two) for as long
 * as its lines take to read, and the other stays free for the requests and the change cursor.
 */
export class OneAtATime {
  #last: Promise<void> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#last.then(work);
    this.#last = next.then(() => undefined, () => undefined);
    return next;
  }
}

/**
 * A completed run copied whole into `dir` (what was there goes): its manifest, change number and
 * lines read in one snapshot of the store when it can (`readSnapshot`), so the copy is the run at
 * one change (never rows from both sides of a repair), which the viewer checks against that
 * change's integrity record. Undefined when the run is no longer there, or no longer completed
 * (made again under its id): the next sync copies what it is.
 */
export async function copyCompletedRun(storage: RunStorage, given: RunManifest, dir: string, snapshots: OneAtATime): Promise<RunManifest | undefined> {
  // Its labels are read first: within the snapshot, its connection is the only one used.
  const copy = await startCopy(storage, given, dir, false);
  let change: number | undefined;
  let manifest: RunManifest | undefined = given;
  try {
    if (storage.readSnapshot === undefined) await appendStoreLines(storage, given.id, dir, copy);
    else {
      const read = storage.readSnapshot.bind(storage);
      manifest = await snapshots.run(() =>
        read(given.id, async (run, lines) => {
          change = run.change;
          if (run.manifest.status !== 'completed') return undefined;
          await appendLines(lines, dir, copy);
          return run.manifest;
        }),
      );
    }
  } catch (error) {
    copy.index.abandon();
    throw error;
  }
  if (manifest === undefined) {
    copy.index.abandon();
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
  copy.manifest = manifest;
  finishCopy(copy);
  await writeCopiedManifest(dir, manifest);
  if (change !== undefined) await writeCopiedChange(dir, change);
  return manifest;
}
