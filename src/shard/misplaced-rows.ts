import { closeSync, openSync, readSync } from 'node:fs';
import type { RowResult } from '../experiment/types.js';
import { contentPrefixLength } from './content-prefix.js';
import { shardOf } from './shard-of.js';

/** A shard's results file, and which shard of how many it says it is. */
export interface ShardFile {
  path: string;
  index: number;
  count: number;
}

/** A row in a shard its content does not hash to: its index, and the shard it belongs to. */
export interface Misplaced {
  index: number;
  belongs: number;
}

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/**
 * The first row (in dataset order) of a shard's results file that belongs to another shard by
 * its content (`--shard` assigns rows by their identity hash), or undefined. Repeats after the
 * first are rows already counted. Lines that are not rows are left to the merge, which reads the
 * same file and names them; so is a torn last line.
 */
export function firstMisplaced(file: ShardFile): Misplaced | undefined {
  let first: Misplaced | undefined;
  const check = (text: string): void => {
    let row: RowResult;
    try {
      row = JSON.parse(text) as RowResult;
    } catch {
      return;
    }
    if (row === null || typeof row !== 'object' || row.repeat !== 0 || typeof row.index !== 'number') return;
    if (first !== undefined && row.index >= first.index) return;
    const belongs = shardOf(row, file.count);
    if (belongs !== file.index) first = { index: row.index, belongs };
  };
  const fd = openSync(file.path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(CHUNK);
    // buffer[0, carry) is the start of a line the last read cut.
    let carry = 0;
    for (;;) {
      if (carry === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = readSync(fd, buffer, carry, buffer.length - carry, null);
      if (read === 0) break;
      const data = buffer.subarray(0, carry + read);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        if (nl > start) {
          // Only the row's index, repeat and content are needed: the line's start that holds them, when it can be told.
          const prefix = contentPrefixLength(data, start, nl);
          check(prefix === undefined ? data.toString('utf8', start, nl) : `${data.toString('utf8', start, start + prefix)}}`);
        }
        start = nl + 1;
      }
      data.copy(buffer, 0, start);
      carry = data.length - start;
    }
  } finally {
    closeSync(fd);
  }
  return first;
}
