import { blobHashesOf } from '../run-blobs.js';
import type { RunStorage } from '../storage.js';
import type { RunManifest } from '../types.js';

/** What blobs copyBlobs reads from: a store, or the local blob folder alone (a streamed run's source). */
export type BlobSource = Pick<RunStorage, 'getBlob'>;

/**
 * The prompt files the run was made from (its provenance), sent to the other store so a rerun (or
 * the viewer's messages) from there can run them. Both `runs push`/`pull` and a run streamed to
 * the store while it runs send them: a streamed run is then as complete there as a pushed one.
 * A blob the source lacks (pruned) stays missing: `rerun` says so where it is needed.
 */
export async function copyBlobs(from: BlobSource, to: Pick<RunStorage, 'putBlob'>, manifest: RunManifest): Promise<void> {
  for (const hash of blobHashesOf(manifest)) {
    const text = await from.getBlob(hash).catch(() => undefined);
    if (text !== undefined) await to.putBlob(text);
  }
}
