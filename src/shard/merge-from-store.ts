import { UsageError } from '../errors/index.js';
import { copyRun, LocalStorage, openStorage, type RunManifest, type RunStorage, type StoredRun } from '../store/index.js';
import { checkShards } from './check-shards.js';
import { mergeShards, type MergedRun } from './merge-shards.js';

export interface StoreMergeOptions {
  /** The project whose `.agentmark/runs/` gets the shards and the merged run, like any run. */
  projectRoot: string;
  /** The team store's URL; undefined: the project's own `.agentmark/` folder is the store. */
  storeUrl?: string;
  /** Merge even when shards are missing (the merged run is then `partial`). @default false */
  allowPartial?: boolean;
  now?: () => number;
  random?: () => number;
}

export interface StoreMerge extends MergedRun {
  group: string;
  /** The group was merged before (by another `merge --store` or the last shard): that run is given back, nothing is written. */
  already: boolean;
}

/**
 * `agentmark merge --store <group>`: merges the shard runs of a group that live in the store. Under
 * the group's lock (one merge of a group at a time, across machines), it gives back the group's
 * merged run when one is completed there; otherwise it picks each shard's run, checks them as a
 * merge of local shards does (missing, the same shard twice, different prompts or datasets, an
 * unfinished shard) before anything is copied, brings each into `.agentmark/runs/` (streamed a
 * batch at a time and checked against its integrity record: a damaged shard is refused), merges
 * them as `merge` does, and stores the merged run, which the store marks completed only once its
 * rows match its record. The database also keeps one merged run per group (a unique index).
 */
export async function mergeFromStore(group: string, options: StoreMergeOptions): Promise<StoreMerge> {
  const { projectRoot } = options;
  const storage = await openStorage({ projectRoot, ...(options.storeUrl === undefined ? {} : { url: options.storeUrl }) });
  const local = new LocalStorage(projectRoot);
  try {
    const release = await storage.lockShardGroup(group);
    try {
      const before = await storage.mergedRunOf(group);
      if (before?.status === 'completed') return await givenBack(storage, local, group, before);
      const chosen = pickShards(await storage.listShards(group), group, storage);
      checkShards(chosen.map((manifest) => asStored(manifest, storage)), { allowPartial: options.allowPartial ?? false });
      // A merge killed before its end (still `running`), or one made of some shards only: replaced,
      // once the shards are known to merge.
      if (before !== undefined) await storage.removeRun(before.id);
      for (const manifest of chosen) await copyRun(storage, local, manifest.id);
      const merged = await mergeShards(
        chosen.map((manifest) => manifest.id),
        {
          projectRoot,
          ...(options.allowPartial === undefined ? {} : { allowPartial: options.allowPartial }),
          ...(options.now === undefined ? {} : { now: options.now }),
          ...(options.random === undefined ? {} : { random: options.random }),
        },
      );
      const manifest = await local.updateRun(merged.manifest.id, groupFields(merged.manifest, chosen, group));
      try {
        await copyRun(local, storage, manifest.id);
      } catch (error) {
        // The database's guard: another process stored the group's merged run after all.
        if ((error as { code?: string }).code !== '23505') throw error;
        const other = await storage.mergedRunOf(group);
        if (other?.status !== 'completed') throw error;
        await local.removeRun(manifest.id);
        return await givenBack(storage, local, group, other);
      }
      return { ...merged, manifest, group, already: false };
    } finally {
      await release();
    }
  } finally {
    await local.close();
    await storage.close();
  }
}

/** The merged run already in the store, brought into `.agentmark/runs/` as a run reference would be. */
async function givenBack(storage: RunStorage, local: LocalStorage, group: string, manifest: RunManifest): Promise<StoreMerge> {
  await copyRun(storage, local, manifest.id);
  return { dir: local.store.runDir(manifest.id), manifest, group, already: true };
}

/**
 * One run per shard index: its completed run; a shard run again (a CI job retried) leaves a failed
 * or killed run beside the completed one, which is passed over. Two completed runs of one index
 * both go on, for the check to refuse as the same shard twice; an index with no completed run
 * gives its newest run, for the check to say it did not finish.
 */
function pickShards(manifests: RunManifest[], group: string, storage: RunStorage): RunManifest[] {
  if (manifests.length === 0) {
    throw new UsageError('USAGE_UNKNOWN_SHARD_GROUP', `no shard runs of group "${group}" in ${storage.location}`, {
      hint: 'the group is what the shards were run with: --shard-group <name> or AGENTMARK_SHARD_GROUP (a shard run prints it at its end)',
    });
  }
  const byIndex = new Map<number, RunManifest[]>();
  for (const manifest of manifests) {
    const index = manifest.shard?.index ?? 0;
    byIndex.set(index, [...(byIndex.get(index) ?? []), manifest]);
  }
  const chosen: RunManifest[] = [];
  for (const runs of byIndex.values()) {
    const completed = runs.filter((m) => m.status === 'completed');
    chosen.push(...(completed.length > 0 ? completed : runs.slice(0, 1)));
  }
  return chosen;
}

/** A shard known by its manifest only, for the checks made before anything is copied (they read no rows). */
function asStored(manifest: RunManifest, storage: RunStorage): StoredRun {
  return {
    dir: storage.location,
    manifest,
    async *rowsInOrder() {
      // never read: checkShards looks at manifests only
    },
  };
}

/** The group the run was merged from, and the branch when every shard ran on one (`@main` then finds it). */
function groupFields(manifest: RunManifest, shards: RunManifest[], group: string): Pick<RunManifest, 'merged' | 'git'> {
  const branches = new Set(shards.map((shard) => shard.git?.branch));
  const [branch] = [...branches];
  return {
    ...(manifest.merged ? { merged: { ...manifest.merged, group } } : {}),
    ...(manifest.git && branches.size === 1 && branch !== undefined ? { git: { ...manifest.git, branch } } : {}),
  };
}
