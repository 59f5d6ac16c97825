import { UsageError } from '../errors/index.js';
import type { RowResult } from '../experiment/types.js';
import { parseStoredRow } from '../store/index.js';
import type { ShardRun } from './check-shards.js';
import { shardOf } from './shard-of.js';
import { shardRows, type ShardRows } from './shard-rows.js';

/** A row of the merge: parsed, with its stored line (`bytes[from, from + length)`, valid only during the call). */
export type EachRow = (row: RowResult, bytes: Buffer, from: number, length: number) => void;

interface Head {
  entry: ShardRun;
  rows: ShardRows;
}

/**
 * The rows of several shards as one stream in dataset order (index, then repeat), each given to
 * `each` with its stored line: each shard is read in order from its own file, and the smallest
 * head goes next, so no shard is held in memory. The order comes from the shards' scans (each
 * row's index and repeat, read from its bytes), so a row is parsed once, for `each`. A row found
 * in two shards, or in a shard its content does not hash to, means the runs are not shards of
 * one dataset: a UsageError naming both runs. `counts` gets each shard's number of rows.
 */
export async function mergeRowsInOrder(shards: ShardRun[], counts: Map<number, number>, each: EachRow): Promise<void> {
  const heads: Head[] = [];
  try {
    for (const entry of shards) {
      const head: Head = { entry, rows: await shardRows(entry.run) };
      heads.push(head);
      await head.rows.advance();
    }
    const live = heads.filter((head) => !head.rows.done);
    for (;;) {
      let next: Head | undefined;
      for (const head of live) {
        const rows = head.rows;
        if (rows.done) continue;
        if (next !== undefined) {
          const order = rows.index - next.rows.index || rows.repeat - next.rows.repeat;
          if (order === 0) throw overlap(next, head);
          if (order > 0) continue;
        }
        next = head;
      }
      if (next === undefined) return;
      const { rows, entry } = next;
      const { bytes, from, length } = rows;
      const row = parseStoredRow(bytes.toString('utf8', from, from + length), rows.path, rows.start);
      const { shard } = entry;
      if (row.repeat === 0 && shardOf(row, shard.count) !== shard.index) throw wrongShard(entry, row);
      counts.set(shard.index, (counts.get(shard.index) ?? 0) + 1);
      each(row, bytes, from, length);
      const reading = rows.advance();
      if (reading !== undefined) await reading;
    }
  } finally {
    await Promise.all(heads.map((head) => head.rows.close()));
  }
}

function overlap(a: Head, b: Head): UsageError {
  const { index, repeat } = a.rows;
  return new UsageError(
    'USAGE_SHARD_OVERLAP',
    `overlapping shards: row ${index}${repeat > 0 ? ` (repeat ${repeat})` : ''} is in both run ${a.entry.run.manifest.id} (shard ${a.entry.shard.index}/${a.entry.shard.count}) ` +
      `and run ${b.entry.run.manifest.id} (shard ${b.entry.shard.index}/${b.entry.shard.count})`,
    { hint: 'the shards were made from different datasets, or a results file was edited' },
  );
}

function wrongShard(entry: ShardRun, row: RowResult): UsageError {
  const { shard } = entry;
  return new UsageError(
    'USAGE_SHARD_MISMATCH',
    `run ${entry.run.manifest.id} (shard ${shard.index}/${shard.count}) holds row ${row.index}, which belongs to shard ${shardOf(row, shard.count)}/${shard.count}`,
    { hint: 'its results file does not match its manifest (edited, or copied from another run); rerun that shard' },
  );
}
