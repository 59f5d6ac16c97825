import { describe, expect, it } from 'vitest';
import type { ScoreSchema } from '../../src/project/types.js';
import { validateResult } from '../../src/scoring/index.js';

const boolean: ScoreSchema = { type: 'boolean' };
const numeric: ScoreSchema = { type: 'numeric', min: 1, max: 5 };
const categorical: ScoreSchema = {
  type: 'categorical',
  categories: [
    { label: 'professional', value: 2 },
    { label: 'neutral', value: 1 },
    { label: 'casual', value: 0 },
  ],
};

describe('validateResult: shape', () => {
  it.each([
    [null, 'null'],
    [[1], 'an array'],
    [true, 'boolean true'],
    [0.5, 'number 0.5'],
    ['ok', 'the string "ok"'],
    [undefined, 'undefined'],
  ])('a non-object result (%j) is an error', (value, described) => {
    expect(validateResult(value, boolean)).toEqual({
      error: `a scorer must return an object like { passed, score, label, reason }, got ${described}`,
    });
  });
  it.each([
    [{ score: 'high' }, '"score" must be a finite number, got the string "high"'],
    [{ score: Number.NaN }, '"score" must be a finite number, got number NaN'],
    [{ score: Infinity }, '"score" must be a finite number, got number Infinity'],
    [{ passed: 'yes' }, '"passed" must be a boolean, got the string "yes"'],
    [{ label: 3 }, '"label" must be a string, got number 3'],
    [{ passed: true, reason: { why: 1 } }, '"reason" must be a string, got an object'],
    [{ skipped: 1 }, '"skipped" must be a boolean, got number 1'],
  ])('wrong field types are errors: %j', (value, error) => {
    expect(validateResult(value, boolean)).toEqual({ error });
  });
  it('a skipped result has no verdict and is not checked', () => {
    expect(validateResult({ skipped: true, reason: 'no live latency (cached)' }, boolean)).toEqual({
      skipped: true,
      reason: 'no live latency (cached)',
    });
  });
});

describe('validateResult: boolean', () => {
  it('reads passed, keeping a given score', () => {
    expect(validateResult({ passed: true, reason: 'ok' }, boolean)).toEqual({ passed: true, score: 1, normalized: 1, reason: 'ok' });
    expect(validateResult({ passed: false, score: 0.3 }, boolean)).toEqual({ passed: false, score: 0.3, normalized: 0 });
  });
  it('a score alone: >= 0.5 passes', () => {
    expect(validateResult({ score: 0.5 }, boolean)).toEqual({ passed: true, score: 0.5, normalized: 1 });
    expect(validateResult({ score: 0 }, boolean)).toEqual({ passed: false, score: 0, normalized: 0 });
  });
  it('neither is an error', () => {
    expect(validateResult({ label: 'x', reason: 'hm' }, boolean)).toEqual({
      error: 'a boolean score needs "passed" (or a "score", where >= 0.5 means passed)',
    });
  });
});

describe('validateResult: numeric', () => {
  it('normalises by min and max', () => {
    expect(validateResult({ score: 4, reason: 'r' }, numeric)).toEqual({ score: 4, normalized: 0.75, reason: 'r' });
    expect(validateResult({ score: 1, passed: false }, numeric)).toEqual({ score: 1, normalized: 0, passed: false });
  });
  it('out of range and missing scores are errors', () => {
    expect(validateResult({ score: 6 }, numeric)).toEqual({ error: 'score 6 is not within [1, 5]' });
    expect(validateResult({ score: -1 }, { type: 'numeric', min: 0 })).toEqual({ error: 'score -1 is not >= 0' });
    expect(validateResult({ score: 11 }, { type: 'numeric', max: 10 })).toEqual({ error: 'score 11 is not <= 10' });
    expect(validateResult({ passed: true }, numeric)).toEqual({ error: 'a numeric score needs "score", a number within [1, 5]' });
    expect(validateResult({ passed: true }, { type: 'numeric' })).toEqual({ error: 'a numeric score needs "score", a number' });
  });
  it('without a range, a score in 0..1 is its own normalised value', () => {
    expect(validateResult({ score: 0.4 }, { type: 'numeric' })).toEqual({ score: 0.4, normalized: 0.4 });
    expect(validateResult({ score: 40 }, { type: 'numeric' })).toEqual({ score: 40 });
  });
});

describe('validateResult: categorical', () => {
  it('takes the category value as the score and normalises by the values', () => {
    expect(validateResult({ label: 'neutral', reason: 'r' }, categorical)).toEqual({ label: 'neutral', score: 1, normalized: 0.5, reason: 'r' });
    expect(validateResult({ label: 'professional', score: 99 }, categorical)).toEqual({ label: 'professional', score: 2, normalized: 1 });
  });
  it('an unknown label is an error with the closest label', () => {
    expect(validateResult({ label: 'profesional' }, categorical)).toEqual({
      error: 'label "profesional" is not one of: professional, neutral, casual (did you mean "professional"?)',
    });
    expect(validateResult({ label: 'zzz' }, categorical)).toEqual({ error: 'label "zzz" is not one of: professional, neutral, casual' });
  });
  it('a missing label is an error', () => {
    expect(validateResult({ score: 1 }, categorical)).toEqual({ error: 'a categorical score needs "label", one of: professional, neutral, casual' });
  });
});

describe('validateResult: no schema', () => {
  it('keeps the result as given, marked untyped', () => {
    expect(validateResult({ score: 7, reason: 'r' })).toEqual({ score: 7, reason: 'r', untyped: true });
    expect(validateResult({ score: 0.7, passed: true })).toEqual({ score: 0.7, passed: true, untyped: true, normalized: 0.7 });
    expect(validateResult({ passed: false })).toEqual({ passed: false, untyped: true, normalized: 0 });
  });
});
