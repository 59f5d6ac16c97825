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

/** `--sample N`: a positive whole number of rows. */
export function parseSampleSpec(spec: string, seed = 0): Extract<RowSelection, { kind: 'sample' }> {
  const count = /^\d+$/.test(spec.trim()) ? Number(spec.trim()) : NaN;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new UsageError('USAGE_INVALID_SAMPLE', `--sample "${spec}": expected a positive whole number of rows`, {
      hint: 'e.g. --sample 20 --seed 7',
    });
  }
  return { kind: 'sample', count, seed };
}

/** `--seed S`: a whole number (used modulo 2^32). Selections default to seed 0 without it. */
export function parseSeed(spec: string): number {
  const trimmed = spec.trim();
  if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new UsageError('USAGE_INVALID_SEED', `--seed "${spec}": expected a whole number`, { hint: 'e.g. --seed 42' });
  }
  return Number(trimmed);
}

/** `--split name:percent`, e.g. `train:80` or `test:20`; percent is a whole number 1..100. */
export function parseSplitSpec(spec: string, seed = 0): Extract<RowSelection, { kind: 'split' }> {
  const match = /^([A-Za-z][\w-]*):(\d+)$/.exec(spec.trim());
  const percent = match?.[2] === undefined ? NaN : Number(match[2]);
  if (!match?.[1] || !(percent >= 1 && percent <= 100)) {
    const problem = match ? `percent ${match[2]} is not between 1 and 100` : 'expected name:percent';
    throw new UsageError('USAGE_INVALID_SPLIT', `--split "${spec}": ${problem}`, { hint: 'e.g. --split train:80 or --split test:20' });
  }
  return { kind: 'split', name: match[1], percent, seed };
}

/** The raw selection flags of a command line, as strings. */
export interface RowSelectionFlags {
  rows?: string;
  sample?: string;
  seed?: string;
  split?: string;
}

/** Turns the flags into one selection; `--rows`, `--sample` and `--split` exclude each other. */
export function parseRowSelection(flags: RowSelectionFlags): RowSelection {
  const given = (['rows', 'sample', 'split'] as const).filter((flag) => flags[flag] !== undefined);
  if (given.length > 1) {
    throw new UsageError('USAGE_CONFLICTING_SELECTION', `${given.map((flag) => `--${flag}`).join(' and ')} cannot be used together`, {
      hint: 'pick one of --rows, --sample or --split',
    });
  }
  const seed = flags.seed === undefined ? 0 : parseSeed(flags.seed);
  if (flags.rows !== undefined) return { kind: 'rows', ranges: parseRowsSpec(flags.rows) };
  if (flags.sample !== undefined) return parseSampleSpec(flags.sample, seed);
  if (flags.split !== undefined) return parseSplitSpec(flags.split, seed);
  return { kind: 'all' };
}
