export { parseShardSpec, formatShard, MAX_SHARDS, type ShardSpec } from './shard-spec.js';
export { shardOf, shardOfKey } from './shard-of.js';
export { selectShard } from './select-shard.js';
export { checkShards, describeMissing, type CheckedShards, type ShardRun } from './check-shards.js';
export { mergeShards, type MergeShardsOptions, type MergedRun } from './merge-shards.js';
