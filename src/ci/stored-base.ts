import { listRuns } from '../history/index.js';
import { parseFrontmatter } from '../prompt/frontmatter.js';
import { dirname, join } from 'node:path';
import { copyRun, LocalStorage, openRunFolder, openStorage, type RunManifest, type RunStore, type StoredRun } from '../store/index.js';
import type { ShardSpec } from '../shard/index.js';
import { fileAt } from './git.js';
import { basePath, type BaseTree } from './plan-prompts.js';

/**
 * The newest finished run in the store made at the base commit from a clean tree, of the same
 * prompt path over its whole dataset once, with the model the base's prompt names: what a run of
 * the base would give, already made (by an earlier `ci`, or a run on main). The commit and the
 * clean tree pin the prompt, dataset and config files; undefined when there is none.
 */
export async function storedBase(store: RunStore, path: string, tree: BaseTree, shard?: ShardSpec, storeUrl?: string): Promise<StoredRun | undefined> {
  if (storeUrl !== undefined) {
    const found = await teamStoreBase(storeUrl, store, path, tree, shard);
    if (found !== undefined) return found;
  }
  const runs = await listRuns(store, { prompt: path, finishedOnly: true });
  const candidates = runs.filter((run) => run.git?.commit === tree.commit && run.git.dirty === false && wholeRun(run, shard));
  if (candidates.length === 0) return undefined;
  const model = await baseModel(tree, path);
  const found = candidates.find((run) => run.model === model);
  return found ? openRunFolder(store.runDir(found.id)) : undefined;
}

/**
 * The same base run in the team store (a run made on main, by a laptop or another CI job), brought
 * into the local store checked against its record, so `ci` reads it as a local one.
 */
async function teamStoreBase(url: string, store: RunStore, path: string, tree: BaseTree, shard: ShardSpec | undefined): Promise<StoredRun | undefined> {
  const team = await openStorage({ projectRoot: store.runsDir, url });
  try {
    const runs = await team.listRuns({ promptPath: path, commit: tree.commit, status: 'completed' });
    const candidates = runs.filter((run) => run.git?.commit === tree.commit && run.git.dirty === false && wholeRun(run, shard));
    if (candidates.length === 0) return undefined;
    const model = await baseModel(tree, path);
    const found = candidates.find((run) => run.model === model);
    if (found === undefined) return undefined;
    const local = new LocalStorage(store.runsDir, { runsDir: store.runsDir, blobsDir: join(dirname(store.runsDir), 'blobs') });
    try {
      await copyRun(team, local, found.id);
    } finally {
      await local.close();
    }
    return openRunFolder(store.runDir(found.id));
  } finally {
    await team.close();
  }
}

/** Every row (of the shard, with --shard), once, scored: a run `ci` would make (no --rows, --repeat, --skip-eval, --tag). */
function wholeRun(run: RunManifest, shard: ShardSpec | undefined): boolean {
  const options = run.options;
  const selection = options.selection as { kind?: string } | undefined;
  return (selection === undefined || selection.kind === 'all') && (shard === undefined ? run.shard === undefined : run.shard?.index === shard.index && run.shard.count === shard.count) && run.merged === undefined && (options.repeat ?? 1) === 1 && options.skipEval !== true && options.filter === undefined;
}

/** `model_name` of the prompt's config block at base. */
async function baseModel(tree: BaseTree, path: string): Promise<string | undefined> {
  const bytes = await fileAt(tree.top, tree.commit, basePath(tree, path));
  if (bytes === undefined) return undefined;
  try {
    const { data } = await parseFrontmatter(path, bytes.toString('utf8'));
    const block = (data.text_config ?? data.object_config) as { model_name?: unknown } | undefined;
    return typeof block?.model_name === 'string' ? block.model_name : undefined;
  } catch {
    return undefined;
  }
}
