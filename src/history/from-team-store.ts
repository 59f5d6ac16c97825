import { copyMissingLabels } from '../review/copy-missing-labels.js';
import { copyRun, LocalStorage, openRunFolder, openStorage, type RunManifest, type StoredRun } from '../store/index.js';
import { resolveStoreRef } from './resolve-store-ref.js';

/**
 * A run reference resolved in the team store, or undefined when the store has no such run (the
 * caller then looks in the local folder). The run found is brought into `.agentmark/runs/` first
 * (checked against its integrity record, as `runs pull` does; a run already there whole is not
 * copied again; the store's labels this copy lacks are added), so every command reads it, its
 * labels and its prompt files as a local run. `unknownThrows`: the store's USAGE_UNKNOWN_RUN is
 * thrown instead (a reference only a store resolves, `branch:`/`commit:`).
 */
export async function fromTeamStore(ref: string, url: string, projectRoot: string, prompt: string | undefined, options: { unknownThrows?: boolean } = {}): Promise<StoredRun | undefined> {
  const storage = await openStorage({ projectRoot, url });
  const local = new LocalStorage(projectRoot);
  try {
    let found: RunManifest;
    try {
      found = await resolveStoreRef(storage, ref, prompt);
    } catch (error) {
      if ((error as { code?: string }).code === 'USAGE_UNKNOWN_RUN' && options.unknownThrows !== true) return undefined;
      throw error;
    }
    const { id } = found;
    // Unfinished there (still written, or abandoned by a killed writer) but here: this clone's
    // journal is ahead of the store's copy, and the local look says how to resume it.
    if ((found.status === 'running' || found.status === 'abandoned') && (await local.getRun(id)) !== undefined) return undefined;
    await copyRun(storage, local, id);
    // A run brought here earlier gets the labels written in the store since (through serve, or by
    // another clone), so `agreement` and the viewer here see every reviewer's; this clone's own stay.
    await copyMissingLabels(storage, local, id);
    return await openRunFolder(local.store.runDir(id));
  } finally {
    await local.close();
    await storage.close();
  }
}
