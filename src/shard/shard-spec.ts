import { UsageError } from '../errors/index.js';

/** One part of a sharded run: shard `index` of `count`, 1-based as CI matrices count (`--shard 2/4`). */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Enough for any CI matrix; a bigger count is more likely a typo than a plan. */
export const MAX_SHARDS = 1000;

const HINT = 'write the shard as <i>/<n>, 1 ≤ i ≤ n, e.g. --shard 2/4 (the second of four)';

/** `--shard <i>/<n>`: a usage error (exit 2) for bad syntax, 0/n, i > n or n past MAX_SHARDS. */
export function parseShardSpec(text: string): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new UsageError('USAGE_INVALID_SHARD', `--shard "${text}": expected <i>/<n>`, { hint: HINT });
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) {
    throw new UsageError('USAGE_INVALID_SHARD', `--shard "${text}": the number of shards must be between 1 and ${MAX_SHARDS}`, { hint: HINT });
  }
  if (index < 1 || index > count) {
    throw new UsageError('USAGE_INVALID_SHARD', `--shard "${text}": shard ${index} does not exist; shards are numbered 1 to ${count}`, { hint: HINT });
  }
  return { index, count };
}

/** `2/4`. */
export function formatShard(shard: ShardSpec): string {
  return `${shard.index}/${shard.count}`;
}
