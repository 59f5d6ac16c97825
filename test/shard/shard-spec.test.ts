import { describe, expect, it } from 'vitest';
import { formatShard, parseShardSpec } from '../../src/shard/index.js';

describe('parseShardSpec', () => {
  it('reads i/n, 1-based, with spaces allowed around the parts', () => {
    expect(parseShardSpec('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShardSpec(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShardSpec('1000/1000')).toEqual({ index: 1000, count: 1000 });
    expect(formatShard({ index: 3, count: 8 })).toBe('3/8');
  });

  it.each([
    ['0/4', '--shard "0/4": shard 0 does not exist; shards are numbered 1 to 4'],
    ['5/4', '--shard "5/4": shard 5 does not exist; shards are numbered 1 to 4'],
    ['1/0', '--shard "1/0": the number of shards must be between 1 and 1000'],
    ['1/1001', '--shard "1/1001": the number of shards must be between 1 and 1000'],
    ['2', '--shard "2": expected <i>/<n>'],
    ['a/4', '--shard "a/4": expected <i>/<n>'],
    ['-1/4', '--shard "-1/4": expected <i>/<n>'],
    ['1.5/4', '--shard "1.5/4": expected <i>/<n>'],
    ['', '--shard "": expected <i>/<n>'],
  ])('%j is a usage error', (text, message) => {
    expect(() => parseShardSpec(text)).toThrow(expect.objectContaining({ code: 'USAGE_INVALID_SHARD', message, exitCode: 2 }));
  });
});
