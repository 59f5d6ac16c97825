import { UsageError } from '../errors/index.js';
import type { RowResult } from '../experiment/types.js';
import type { StoredLine, StoredRun } from '../store/index.js';
import type { ShardRun } from './check-shards.js';
import { shardOf } from './shard-of.js';

interface Head {
  entry: ShardRun;
  rows: AsyncGenerator<StoredLine>;
  line: StoredLine | undefined;
  row: RowResult | undefined;
}

/** A run's rows with their stored lines; a run opened some other way gives its rows written out. */
async function* linesOf(run: StoredRun): AsyncGenerator<StoredLine> {
  if (run.linesInOrder) {
    yield* run.linesInOrder();
    return;
  }
  for await (const row of run.rowsInOrder()) yield { row, text: `${JSON.stringify(row)}\n` };
}

const before = (a: RowResult, b: RowResult): number => a.index - b.index || a.repeat - b.repeat;

/**
 * The rows of several shards (each with its stored line) as one stream in dataset order (index, then repeat): each shard
 * is read in order from its own file, and the smallest head goes next, so no shard is held in
 * memory. A row found in two shards, or in a shard its content does not hash to, means the
 * runs are not shards of one dataset: a UsageError naming both runs. `counts` gets each
 * shard's number of rows.
 */
export async function* mergeRowsInOrder(shards: ShardRun[], counts: Map<number, number>): AsyncGenerator<StoredLine> {
  const heads: Head[] = [];
  const advance = async (head: Head): Promise<void> => {
    head.line = (await head.rows.next()).value ?? undefined;
    head.row = head.line?.row;
  };
  try {
    for (const entry of shards) {
      const head: Head = { entry, rows: linesOf(entry.run), line: undefined, row: undefined };
      await advance(head);
      heads.push(head);
    }
    for (;;) {
      let next: Head | undefined;
      for (const head of heads) {
        if (head.row === undefined) continue;
        if (next?.row !== undefined) {
          const order = before(head.row, next.row);
          if (order === 0) throw overlap(next, head);
          if (order > 0) continue;
        }
        next = head;
      }
      if (next?.row === undefined || next.line === undefined) return;
      const { row, line } = next;
      const { shard } = next.entry;
      if (row.repeat === 0 && shardOf(row, shard.count) !== shard.index) throw wrongShard(next.entry, row);
      counts.set(shard.index, (counts.get(shard.index) ?? 0) + 1);
      yield line;
      await advance(next);
    }
  } finally {
    await Promise.all(heads.map((head) => head.rows.return(undefined)));
  }
}

function overlap(a: Head, b: Head): UsageError {
  const row = a.row as RowResult;
  return new UsageError(
    'USAGE_SHARD_OVERLAP',
    `overlapping shards: row ${row.index}${row.repeat > 0 ? ` (repeat ${row.repeat})` : ''} is in both run ${a.entry.run.manifest.id} (shard ${a.entry.shard.index}/${a.entry.shard.count}) ` +
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
