import { UsageError } from '../errors/index.js';
import type { RowResult } from '../experiment/types.js';
import { join } from 'node:path';
import { parseStoredRow, RESULTS_FILE } from '../store/index.js';
import type { ShardRun } from './check-shards.js';
import { MisplacedCheck } from './misplaced-check.js';
import { shardOf } from './shard-of.js';
import { shardRows, type ShardRows } from './shard-rows.js';

/**
 * A row of the merge: parsed, with its stored line (`bytes[from, from + length)`, valid until the
 * call returns, or until the promise it gives back, when it has to wait, settles).
 */
export type EachRow = (row: RowResult, bytes: Buffer, from: number, length: number) => Promise<void> | undefined;

interface Head {
  entry: ShardRun;
  rows: ShardRows;
  /** Its rows' shard is checked by a MisplacedCheck of its file, not here. */
  checked: boolean;
  /** Rows of it merged so far (into `counts` at the end: a map update per row was a cost of its own). */
  merged: number;
}

/** Where the merge stopped, and why: the first problem in dataset order is the one reported. */
interface Stop {
  index: number;
  repeat: number;
  error: UsageError;
}

/**
 * The rows of several shards as one stream in dataset order (index, then repeat), each given to
 * `each` with its stored line: each shard is read in order from its own file, and the smallest
 * head goes next, so no shard is held in memory. The order comes from the shards' scans (each
 * row's index and repeat, read from its bytes), so a row is parsed once, for `each`. A row found
 * in two shards, or in a shard its content does not hash to, means the runs are not shards of
 * one dataset: a UsageError naming both runs. The shard of each row of a shard's results file is
 * checked on a second thread (MisplacedCheck) while the rows are merged, and its answer waited
 * for at the end. `counts` gets each shard's number of rows.
 */
export async function mergeRowsInOrder(shards: ShardRun[], counts: Map<number, number>, each: EachRow): Promise<void> {
  const inFiles = shards.filter((entry) => entry.run.checkedResults !== undefined);
  const check = new MisplacedCheck(inFiles.map((entry) => ({ path: join(entry.run.dir, RESULTS_FILE), index: entry.shard.index, count: entry.shard.count })));
  const heads: Head[] = [];
  let stop: Stop | undefined;
  try {
    for (const entry of shards) {
      const head: Head = { entry, rows: await shardRows(entry.run), checked: inFiles.includes(entry), merged: 0 };
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
          if (order === 0) {
            stop = { index: rows.index, repeat: rows.repeat, error: overlap(next, head) };
            break;
          }
          if (order > 0) continue;
        }
        next = head;
      }
      if (stop !== undefined || next === undefined) break;
      const { rows, entry } = next;
      const { bytes, from, length } = rows;
      const row = parseStoredRow(bytes.toString('utf8', from, from + length), rows.path, rows.start);
      const { shard } = entry;
      if (!next.checked && row.repeat === 0) {
        const belongs = shardOf(row, shard.count);
        if (belongs !== shard.index) {
          stop = { index: row.index, repeat: 0, error: wrongShard(entry, row.index, belongs) };
          break;
        }
      }
      next.merged += 1;
      const writing = each(row, bytes, from, length);
      if (writing !== undefined) await writing;
      const reading = rows.advance();
      if (reading !== undefined) await reading;
    }
    // A misplaced row before where the merge stopped (or anywhere, when it did not) is the first problem.
    const misplaced = await check.result();
    let first: Stop | undefined;
    misplaced.forEach((found, k) => {
      if (found !== undefined && (first === undefined || found.index < first.index)) first = { index: found.index, repeat: 0, error: wrongShard(inFiles[k] as ShardRun, found.index, found.belongs) };
    });
    if (first !== undefined && (stop === undefined || first.index < stop.index || (first.index === stop.index && stop.repeat > 0))) throw first.error;
    if (stop !== undefined) throw stop.error;
  } finally {
    for (const head of heads) counts.set(head.entry.shard.index, (counts.get(head.entry.shard.index) ?? 0) + head.merged);
    check.stop();
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

function wrongShard(entry: ShardRun, index: number, belongs: number): UsageError {
  const { shard } = entry;
  return new UsageError(
    'USAGE_SHARD_MISMATCH',
    `run ${entry.run.manifest.id} (shard ${shard.index}/${shard.count}) holds row ${index}, which belongs to shard ${belongs}/${shard.count}`,
    { hint: 'its results file does not match its manifest (edited, or copied from another run); rerun that shard' },
  );
}
