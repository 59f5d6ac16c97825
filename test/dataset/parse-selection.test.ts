import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { parseRowSelection, parseRowsSpec, parseSampleSpec, parseSeed, parseSplitSpec } from '../../src/dataset/index.js';

function usage(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const usageError = error as UsageError;
    return { code: usageError.code, message: usageError.message };
  }
  throw new Error('expected a UsageError');
}

describe('parseRowsSpec', () => {
  it('parses indexes and inclusive ranges', () => {
    expect(parseRowsSpec('0,3-5,9')).toEqual([[0, 0], [3, 5], [9, 9]]);
    expect(parseRowsSpec(' 2 , 4 - 4 ')).toEqual([[2, 2], [4, 4]]);
  });

  it.each([
    ['0,x', '--rows "0,x": "x" is not a row index or a range like 3-5'],
    ['1,,2', '--rows "1,,2": an empty entry is not a row index or a range like 3-5'],
    ['-1', '--rows "-1": "-1" is not a row index or a range like 3-5'],
    ['1.5', '--rows "1.5": "1.5" is not a row index or a range like 3-5'],
    ['5-3', '--rows "5-3": range "5-3" ends before it starts'],
  ])('rejects %s', (spec, message) => {
    expect(usage(() => parseRowsSpec(spec))).toEqual({ code: 'USAGE_INVALID_ROWS', message });
  });
});

describe('parseSplitSpec', () => {
  it('parses name:percent with the seed', () => {
    expect(parseSplitSpec('train:80')).toEqual({ kind: 'split', name: 'train', percent: 80, seed: 0 });
    expect(parseSplitSpec('test:20', 7)).toEqual({ kind: 'split', name: 'test', percent: 20, seed: 7 });
  });

  it.each([
    ['train', '--split "train": expected name:percent'],
    ['train:0', '--split "train:0": percent 0 is not between 1 and 100'],
    ['train:101', '--split "train:101": percent 101 is not between 1 and 100'],
    [':80', '--split ":80": expected name:percent'],
    ['train:8.5', '--split "train:8.5": expected name:percent'],
  ])('rejects %s', (spec, message) => {
    expect(usage(() => parseSplitSpec(spec))).toEqual({ code: 'USAGE_INVALID_SPLIT', message });
  });
});

describe('parseSampleSpec and parseSeed', () => {
  it('parses a count and a seed', () => {
    expect(parseSampleSpec('20', 4)).toEqual({ kind: 'sample', count: 20, seed: 4 });
    expect(parseSeed('-3')).toBe(-3);
  });

  it('rejects bad values naming the flag', () => {
    expect(usage(() => parseSampleSpec('0'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: '--sample "0": expected a positive whole number of rows' });
    expect(usage(() => parseSampleSpec('ten'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: '--sample "ten": expected a positive whole number of rows' });
    expect(usage(() => parseSeed('abc'))).toEqual({ code: 'USAGE_INVALID_SEED', message: '--seed "abc": expected a whole number' });
  });
});

describe('parseRowSelection', () => {
  it('picks the one selection given, all rows by default', () => {
    expect(parseRowSelection({})).toEqual({ kind: 'all' });
    expect(parseRowSelection({ sample: '3', seed: '9' })).toEqual({ kind: 'sample', count: 3, seed: 9 });
    expect(parseRowSelection({ split: 'test:20' })).toEqual({ kind: 'split', name: 'test', percent: 20, seed: 0 });
    expect(parseRowSelection({ rows: '1' })).toEqual({ kind: 'rows', ranges: [[1, 1]] });
  });

  it('rejects more than one of --rows, --sample and --split', () => {
    expect(usage(() => parseRowSelection({ rows: '1', split: 'train:80' }))).toEqual({
      code: 'USAGE_CONFLICTING_SELECTION',
      message: '--rows and --split cannot be used together',
    });
  });
});
