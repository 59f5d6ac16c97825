import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import { UsageError } from '../errors/index.js';
import type { RunManifest } from '../store/index.js';

/** The environment variable that names the shard group when `--shard-group` is not given. */
export const SHARD_GROUP_ENV = 'AGENTMARK_SHARD_GROUP';

/** Letters, digits and `. _ : / -`: what a CI run id, a Job's uid or a branch name needs, and safe to print and to type. */
const GROUP = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

/** A shard group's name as given (`--shard-group`, AGENTMARK_SHARD_GROUP), or a usage error (exit 2). */
export function parseShardGroup(text: string, from = '--shard-group'): string {
  const group = text.trim();
  if (!GROUP.test(group)) {
    throw new UsageError('USAGE_INVALID_SHARD_GROUP', `${from} "${text}": a shard group is 1 to 200 letters, digits and . _ : / - (starting with a letter or digit)`, {
      hint: 'name it after the CI run that starts the shards, e.g. --shard-group "gha-$GITHUB_RUN_ID" or the Job\'s uid',
    });
  }
  return group;
}

/**
 * The group of a shard run given none: the commit and what must be equal for shards to merge
 * (prompt, dataset, model, settings, row selection, repeats, number of shards), so the shards of
 * one command run on every machine of a matrix at one commit meet in one group unasked. Running
 * the same shards again at that commit lands in the same group: a CI system names each of its runs
 * with `--shard-group` instead.
 */
export function derivedShardGroup(manifest: Pick<RunManifest, 'prompt' | 'dataset' | 'model' | 'settings' | 'options' | 'git'>, count: number): string {
  const what = canonicalJson({
    prompt: [manifest.prompt.path, manifest.prompt.hash],
    dataset: manifest.dataset?.hash ?? null,
    model: manifest.model,
    settings: manifest.settings,
    selection: manifest.options.selection ?? { kind: 'all' },
    repeat: manifest.options.repeat ?? 1,
    count,
  });
  const hash = createHash('sha256').update(what).digest('hex').slice(0, 12);
  const commit = manifest.git?.commit.slice(0, 12);
  return commit === undefined ? `run-${hash}` : `${commit}${manifest.git?.dirty === true ? '-dirty' : ''}-${hash}`;
}
