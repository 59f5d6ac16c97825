import { UsageError } from '../errors/index.js';
import type { RowSelection } from './types.js';

/** `--rows 0,3-5,9`: zero-based indexes and inclusive ranges, as `[start, end]` pairs. */
export function parseRowsSpec(spec: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const hint = 'rows are zero-based indexes and inclusive ranges, e.g. --rows 0,3-5,9';
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!match?.[1]) {
      const what = part === '' ? 'an empty entry' : `"${part}"`;
      throw new UsageError('USAGE_INVALID_ROWS', `--rows "${spec}": ${what} is not a row index or a range like 3-5`, { hint });
    }
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (end < start) {
      throw new UsageError('USAGE_INVALID_ROWS', `--rows "${spec}": range "${part}" ends before it starts`, { hint });
    }
    ranges.push([start, end]);
  }
  return ranges;
}

/** `--sample P`: AgentMark's meaning, a whole-number percentage 1..100 of the rows. */
export function parseSampleSpec(spec: string, seed = 0): Extract<RowSelection, { kind: 'percent' }> {
  const percent = /^\d+$/.test(spec.trim()) ? Number(spec.trim()) : NaN;
  if (!(percent >= 1 && percent <= 100)) {
    throw new UsageError('USAGE_INVALID_SAMPLE', `--sample "${spec}": expected a percentage of the rows, a whole number from 1 to 100`, {
      hint: 'e.g. --sample 20 --seed 7 for 20% of the rows; --sample-rows <n> picks n rows, --limit <n> the first n',
    });
  }
  return { kind: 'percent', percent, seed };
}

/** `--sample-rows N` / `--limit N`: a positive whole number of rows. */
function parseCount(flag: string, spec: string): number {
  const count = /^\d+$/.test(spec.trim()) ? Number(spec.trim()) : NaN;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new UsageError('USAGE_INVALID_SAMPLE', `--${flag} "${spec}": expected a positive whole number of rows`, { hint: `e.g. --${flag} 20` });
  }
  return count;
}

/** `--sample-rows N`: a seeded random N rows. */
export function parseSampleRowsSpec(spec: string, seed = 0): Extract<RowSelection, { kind: 'sample' }> {
  return { kind: 'sample', count: parseCount('sample-rows', spec), seed };
}

/** `--limit N`: the first N rows. */
export function parseLimitSpec(spec: string): Extract<RowSelection, { kind: 'limit' }> {
  return { kind: 'limit', count: parseCount('limit', spec) };
}

/** `--seed S`: a whole number (used modulo 2^32). Selections default to seed 0 without it. */
export function parseSeed(spec: string): number {
  const trimmed = spec.trim();
  if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new UsageError('USAGE_INVALID_SEED', `--seed "${spec}": expected a whole number`, { hint: 'e.g. --seed 42' });
  }
  return Number(trimmed);
}

/**
 * `--split train:P` or `--split test:P` (AgentMark's meaning): P, a whole number 1..99, is
 * always the train portion, so `test:80` is the other 20%. Any other name is a usage error.
 */
export function parseSplitSpec(spec: string, seed?: number): Extract<RowSelection, { kind: 'split' }> {
  const hint = 'e.g. --split train:80 (the 80%) or --split test:80 (the other 20%): the number is always the train portion';
  const match = /^([^:]*):(\d+)$/.exec(spec.trim());
  if (!match) throw new UsageError('USAGE_INVALID_SPLIT', `--split "${spec}": expected train:<percent> or test:<percent>`, { hint });
  const [, name = '', digits = ''] = match;
  if (name !== 'train' && name !== 'test') {
    throw new UsageError('USAGE_INVALID_SPLIT', `--split "${spec}": the portion must be train or test, not "${name}"`, { hint });
  }
  const percent = Number(digits);
  if (!(percent >= 1 && percent <= 99)) {
    throw new UsageError('USAGE_INVALID_SPLIT', `--split "${spec}": the train percentage ${digits} is not between 1 and 99`, { hint });
  }
  return { kind: 'split', name, percent, ...(seed === undefined ? {} : { seed }) };
}

/** The raw selection flags of a command line, as strings. */
export interface RowSelectionFlags {
  rows?: string;
  sample?: string;
  sampleRows?: string;
  limit?: string;
  seed?: string;
  split?: string;
}

const FLAG_NAMES = { rows: 'rows', sample: 'sample', sampleRows: 'sample-rows', limit: 'limit', split: 'split' } as const;

/** Turns the flags into one selection; `--rows`, `--sample`, `--sample-rows`, `--limit` and `--split` exclude each other. */
export function parseRowSelection(flags: RowSelectionFlags): RowSelection {
  const given = (Object.keys(FLAG_NAMES) as Array<keyof typeof FLAG_NAMES>).filter((flag) => flags[flag] !== undefined);
  if (given.length > 1) {
    throw new UsageError('USAGE_CONFLICT', `--${given.map((flag) => FLAG_NAMES[flag]).join(' and --')} cannot be used together`, {
      hint: 'pick one way of choosing rows',
    });
  }
  const seed = flags.seed === undefined ? undefined : parseSeed(flags.seed);
  if (seed !== undefined && flags.sample === undefined && flags.sampleRows === undefined && flags.split === undefined) {
    throw new UsageError('USAGE_CONFLICT', '--seed only applies to --sample, --sample-rows or --split');
  }
  if (flags.rows !== undefined) return { kind: 'rows', ranges: parseRowsSpec(flags.rows) };
  if (flags.sample !== undefined) return parseSampleSpec(flags.sample, seed);
  if (flags.sampleRows !== undefined) return parseSampleRowsSpec(flags.sampleRows, seed);
  if (flags.limit !== undefined) return parseLimitSpec(flags.limit);
  if (flags.split !== undefined) return parseSplitSpec(flags.split, seed);
  return { kind: 'all' };
}
