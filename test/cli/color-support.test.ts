import { expect, test } from 'vitest';
import { colorSupported } from '../../src/cli/color-support.js';
import { envColumns } from '../../src/cli/env-columns.js';

test('colour: FORCE_COLOR wins, then NO_COLOR, then a terminal that is not dumb', () => {
  expect(colorSupported(true, {})).toBe(true);
  expect(colorSupported(false, {})).toBe(false);
  expect(colorSupported(undefined, {})).toBe(false);
  expect(colorSupported(true, { TERM: 'dumb' })).toBe(false);
  expect(colorSupported(true, { NO_COLOR: '1' })).toBe(false);
  // no-color.org: only a non-empty NO_COLOR counts.
  expect(colorSupported(true, { NO_COLOR: '' })).toBe(true);
  expect(colorSupported(false, { FORCE_COLOR: '1' })).toBe(true);
  expect(colorSupported(false, { FORCE_COLOR: '' })).toBe(true);
  expect(colorSupported(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  expect(colorSupported(true, { FORCE_COLOR: '0' })).toBe(false);
  expect(colorSupported(true, { FORCE_COLOR: 'false' })).toBe(false);
});

test('COLUMNS counts only as a positive whole number', () => {
  expect(envColumns({ COLUMNS: '80' })).toBe(80);
  expect(envColumns({ COLUMNS: ' 132 ' })).toBe(132);
  expect(envColumns({})).toBeUndefined();
  expect(envColumns({ COLUMNS: '0' })).toBeUndefined();
  expect(envColumns({ COLUMNS: '-5' })).toBeUndefined();
  expect(envColumns({ COLUMNS: '80.5' })).toBeUndefined();
  expect(envColumns({ COLUMNS: 'wide' })).toBeUndefined();
});
