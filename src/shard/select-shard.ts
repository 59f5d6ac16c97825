import type { DatasetRow } from '../dataset/index.js';
import { shardOf } from './shard-of.js';
import type { ShardSpec } from './shard-spec.js';

/**
 * Keeps the rows of one shard, in file order. Applied after `--rows`/`--sample`/`--split`: the
 * shards of one selection partition exactly the rows that selection picks.
 */
export async function* selectShard(rows: AsyncIterable<DatasetRow>, shard: ShardSpec): AsyncGenerator<DatasetRow> {
  for await (const row of rows) {
    if (shardOf(row, shard.count) === shard.index) yield row;
  }
}
