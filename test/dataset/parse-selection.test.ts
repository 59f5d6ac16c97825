import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors/index.js';
import { parseLimitSpec, parseRowSelection, parseRowsSpec, parseSampleRowsSpec, parseSampleSpec, parseSeed, parseSplitSpec } from '../../src/dataset/index.js';

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
  it('parses train:percent or test:percent, with the seed when one is given', () => {
    expect(parseSplitSpec('train:80')).toEqual({ kind: 'split', name: 'train', percent: 80 });
    expect(parseSplitSpec('test:80', 7)).toEqual({ kind: 'split', name: 'test', percent: 80, seed: 7 });
  });

  const hint = 'e.g. --split train:80 (the 80%) or --split test:80 (the other 20%): the number is always the train portion';
  it.each([
    ['train', '--split "train": expected train:<percent> or test:<percent>'],
    ['dev:80', '--split "dev:80": the portion must be train or test, not "dev"'],
    [':80', '--split ":80": the portion must be train or test, not ""'],
    ['Train:80', '--split "Train:80": the portion must be train or test, not "Train"'],
    ['train:0', '--split "train:0": the train percentage 0 is not between 1 and 99'],
    ['test:100', '--split "test:100": the train percentage 100 is not between 1 and 99'],
    ['train:8.5', '--split "train:8.5": expected train:<percent> or test:<percent>'],
  ])('rejects %s', (spec, message) => {
    expect(usage(() => parseSplitSpec(spec))).toEqual({ code: 'USAGE_INVALID_SPLIT', message });
    expect(() => parseSplitSpec(spec)).toThrow(expect.objectContaining({ hint }));
  });
});

describe('parseSampleSpec, parseSampleRowsSpec, parseLimitSpec and parseSeed', () => {
  it('--sample is a percentage; --sample-rows and --limit are counts', () => {
    expect(parseSampleSpec('20', 4)).toEqual({ kind: 'percent', percent: 20, seed: 4 });
    expect(parseSampleSpec('100')).toEqual({ kind: 'percent', percent: 100, seed: 0 });
    expect(parseSampleRowsSpec('250', 4)).toEqual({ kind: 'sample', count: 250, seed: 4 });
    expect(parseLimitSpec('3')).toEqual({ kind: 'limit', count: 3 });
    expect(parseSeed('-3')).toBe(-3);
  });

  it('rejects bad values naming the flag', () => {
    const percent = (spec: string): string => `--sample "${spec}": expected a percentage of the rows, a whole number from 1 to 100`;
    expect(usage(() => parseSampleSpec('0'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: percent('0') });
    expect(usage(() => parseSampleSpec('101'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: percent('101') });
    expect(usage(() => parseSampleSpec('ten'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: percent('ten') });
    expect(usage(() => parseSampleRowsSpec('0'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: '--sample-rows "0": expected a positive whole number of rows' });
    expect(usage(() => parseLimitSpec('x'))).toEqual({ code: 'USAGE_INVALID_SAMPLE', message: '--limit "x": expected a positive whole number of rows' });
    expect(usage(() => parseSeed('abc'))).toEqual({ code: 'USAGE_INVALID_SEED', message: '--seed "abc": expected a whole number' });
  });
});

describe('parseRowSelection', () => {
  it('picks the one selection given, all rows by default', () => {
    expect(parseRowSelection({})).toEqual({ kind: 'all' });
    expect(parseRowSelection({ sample: '3', seed: '9' })).toEqual({ kind: 'percent', percent: 3, seed: 9 });
    expect(parseRowSelection({ sampleRows: '3' })).toEqual({ kind: 'sample', count: 3, seed: 0 });
    expect(parseRowSelection({ limit: '3' })).toEqual({ kind: 'limit', count: 3 });
    expect(parseRowSelection({ split: 'test:20' })).toEqual({ kind: 'split', name: 'test', percent: 20 });
    expect(parseRowSelection({ split: 'test:20', seed: '0' })).toEqual({ kind: 'split', name: 'test', percent: 20, seed: 0 });
    expect(parseRowSelection({ rows: '1' })).toEqual({ kind: 'rows', ranges: [[1, 1]] });
  });

  it('rejects more than one way of choosing rows, and --seed without a random one', () => {
    expect(usage(() => parseRowSelection({ rows: '1', split: 'train:80' }))).toEqual({ code: 'USAGE_CONFLICT', message: '--rows and --split cannot be used together' });
    expect(usage(() => parseRowSelection({ limit: '1', sampleRows: '2' }))).toEqual({ code: 'USAGE_CONFLICT', message: '--sample-rows and --limit cannot be used together' });
    expect(usage(() => parseRowSelection({ limit: '1', seed: '2' }))).toEqual({ code: 'USAGE_CONFLICT', message: '--seed only applies to --sample, --sample-rows or --split' });
  });
});
