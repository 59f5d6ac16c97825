import { rowIdentity, type RowContent } from '../dataset/index.js';

/**
 * The shard (1-based) a row belongs to among `count`: its identity hash (the one `compare`
 * pairs rows by) read as a number, modulo `count`. It depends on the row's content alone, so
 * every machine puts a row in the same shard, and adding or removing rows never moves another
 * row to a different shard (an index-based split would shift every row after the change).
 */
export function shardOfKey(key: string, count: number): number {
  // 30 bits of the base64url hash (5 characters × 6 bits): uniform, and the modulo bias of a
  // count up to MAX_SHARDS is below one in a million.
  let value = 0;
  for (let i = 0; i < 5; i++) value = value * 64 + BASE64URL.indexOf(key[i] ?? 'A');
  return (value % count) + 1;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The shard (1-based) of a row among `count`. */
export function shardOf(row: RowContent, count: number): number {
  return shardOfKey(rowIdentity(row), count);
}
