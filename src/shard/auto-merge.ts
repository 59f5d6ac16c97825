import { openStorage, RunStore } from '../store/index.js';
import { mergeFromStore } from './merge-from-store.js';

/**
 * After a shard run with a team store ends: when every shard of its group is completed in the
 * store, this one was the last and merges them there (mergeFromStore: of two last shards ending
 * together, one merges and the other finds its run). Gives the line the run's output ends with;
 * a merge that fails is said, and never changes the shard's own exit code.
 */
export async function mergeIfLast(runId: string, options: { projectRoot: string; storeUrl: string }): Promise<string | undefined> {
  const manifest = await new RunStore(options.projectRoot).manifest(runId);
  const shard = manifest.shard;
  if (shard?.group === undefined) return undefined;
  const { group, index, count } = shard;
  const later = `\`agentmark merge --store ${group}\``;
  let done: number;
  try {
    const storage = await openStorage({ projectRoot: options.projectRoot, url: options.storeUrl });
    try {
      if ((await storage.getRun(runId))?.status !== 'completed') {
        return `store: shard ${index}/${count} of group ${group} is not completed in the team store (push it with \`agentmark runs push ${runId}\`), then merge with ${later}`;
      }
      const shards = await storage.listShards(group);
      done = new Set(shards.filter((m) => m.status === 'completed' && m.shard?.count === count).map((m) => m.shard?.index)).size;
    } finally {
      await storage.close();
    }
    if (done < count) return `store: shard ${index}/${count} of group ${group} stored; ${done} of ${count} shards done (the last to finish merges them)`;
    const merged = await mergeFromStore(group, options);
    const rows = merged.manifest.integrity?.rows ?? 0;
    return merged.already
      ? `store: shard group ${group} is merged: run ${merged.manifest.id}`
      : `store: every shard of group ${group} is done: merged ${count} shards (${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}) into run ${merged.manifest.id} in the team store`;
  } catch (error) {
    return `warning: shard group ${group} was not merged (${(error as Error).message}); merge it with ${later}`;
  }
}
