import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalBindingError } from '../../src/errors/index.js';
import { builtin, run } from './fixtures.js';

describe('exact_match', () => {
  it('passes on equal text, trimming by default', async () => {
    expect(await run('exact_match', {}, { output: 'Paris\n', expectedOutput: 'Paris' })).toEqual({
      passed: true,
      score: 1,
      reason: 'output equals expected',
    });
  });
  it('fails with both sides quoted', async () => {
    expect(await run('exact_match', {}, { output: 'paris', expectedOutput: 'Paris' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output "paris" does not equal expected "Paris"',
    });
  });
  it('ignoreCase and trim: false', async () => {
    expect((await run('exact_match', { ignoreCase: true }, { output: 'paris', expectedOutput: 'Paris' })).passed).toBe(true);
    expect((await run('exact_match', { trim: false }, { output: 'Paris ', expectedOutput: 'Paris' })).passed).toBe(false);
  });
  it('json compares structurally, ignoring key order, and names the first difference', async () => {
    const expectedOutput = { a: 1, b: [1, { c: 'x' }] };
    expect(await run('exact_match', { json: true }, { output: '{"b":[1,{"c":"x"}],"a":1}', expectedOutput })).toEqual({
      passed: true,
      score: 1,
      reason: 'output equals expected (JSON)',
    });
    expect(await run('exact_match', { json: true }, { output: { a: 1, b: [1, { c: 'y' }] }, expectedOutput })).toEqual({
      passed: false,
      score: 0,
      reason: 'output differs from expected at $.b[1].c',
    });
    expect(await run('exact_match', { json: true }, { output: '{nope', expectedOutput })).toMatchObject({
      passed: false,
      reason: expect.stringMatching(/^output is not valid JSON: /) as unknown,
    });
  });
  it('stringifies object outputs for text comparison', async () => {
    expect((await run('exact_match', {}, { output: { a: 1 }, expectedOutput: '{"a":1}' })).passed).toBe(true);
  });
  it('throws (an eval error) without expected_output', async () => {
    await expect(run('exact_match', {}, { output: 'x' })).rejects.toThrow(
      'exact_match needs expected_output on the row (or a value in its options)',
    );
  });
  it('rejects unknown options', async () => {
    await expect(builtin('exact_match', { ignorecase: true })).rejects.toThrow(
      'eval "e": invalid options for built-in "exact_match": must NOT have additional properties (ignorecase)',
    );
  });
});

describe('contains / not_contains', () => {
  it('contains a value from options', async () => {
    expect(await run('contains', { value: 'Paris' }, { output: 'It is Paris.' })).toEqual({ passed: true, score: 1, reason: 'output contains "Paris"' });
    expect(await run('contains', { value: 'Paris' }, { output: 'It is paris.' })).toEqual({ passed: false, score: 0, reason: 'output does not contain "Paris"' });
    expect((await run('contains', { value: 'Paris', ignoreCase: true }, { output: 'It is paris.' })).passed).toBe(true);
  });
  it('falls back to the expected output', async () => {
    expect((await run('contains', {}, { output: 'the answer is 42', expectedOutput: 42 })).passed).toBe(true);
  });
  it('not_contains inverts the verdict', async () => {
    expect(await run('not_contains', { value: 'sorry' }, { output: 'Sure!' })).toEqual({ passed: true, score: 1, reason: 'output does not contain "sorry"' });
    expect(await run('not_contains', { value: 'sorry' }, { output: 'I am sorry' })).toEqual({ passed: false, score: 0, reason: 'output contains "sorry"' });
  });
  it('rejects a non-string value', async () => {
    await expect(builtin('contains', { value: 3 })).rejects.toThrow(
      'eval "e": invalid options for built-in "contains": /value must be string',
    );
  });
});

describe('regex', () => {
  it('matches with flags, dropping g so rows do not share state', async () => {
    const bound = await builtin('regex', { pattern: '^\\d{3}-\\d{4}$', flags: 'g' });
    const row = { input: {}, metadata: {}, messages: [], toolCalls: [], usage: undefined, latencyMs: undefined, costUsd: undefined, schema: undefined };
    expect(await bound.scorer({ ...row, output: '555-1234' })).toEqual({ passed: true, score: 1, reason: 'output matches /^\\d{3}-\\d{4}$/' });
    expect((await bound.scorer({ ...row, output: '555-1234' })).passed).toBe(true);
    expect(await bound.scorer({ ...row, output: 'nope' })).toEqual({ passed: false, score: 0, reason: 'output does not match /^\\d{3}-\\d{4}$/' });
  });
  it('ignoreCase through flags', async () => {
    expect((await run('regex', { pattern: 'paris', flags: 'i' }, { output: 'PARIS' })).passed).toBe(true);
  });
  it('an invalid pattern is a binding error', async () => {
    const error = await builtin('regex', { pattern: '(' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvalBindingError);
    expect((error as EvalBindingError).code).toBe('EVAL_INVALID_OPTIONS');
    expect((error as EvalBindingError).message).toBe('eval "e": regex option: unsupported or invalid pattern /(/: missing closing ): `(`');
  });
  // A backtracking engine takes hours on these, far past the test's timeout; the time RE2 takes
  // is the bench's (bounds: hostile patterns).
  it('matches in linear time: (a+)+$ on 40 a\'s and a "!" answers at all (a backtracking engine takes hours)', async () => {
    const result = await run('regex', { pattern: '(a+)+$' }, { output: `${'a'.repeat(40)}!` });
    expect(result).toEqual({ passed: false, score: 0, reason: 'output does not match /(a+)+$/' });
    expect((await run('regex', { pattern: '(a+)+$' }, { output: 'a'.repeat(100_000) })).passed).toBe(true);
  });
  it('refuses backreferences and lookaround at bind time, naming what is unsupported', async () => {
    const backref = (await builtin('regex', { pattern: '(a)\\1' }).catch((e: unknown) => e)) as EvalBindingError;
    expect(backref.message).toBe('eval "e": regex option: unsupported or invalid pattern /(a)\\1/: invalid escape sequence: `\\1`');
    expect(backref.hint).toBe(
      'backreferences (\\1, \\k<name>) are not supported: user patterns use RE2 syntax, which matches in linear time: ' +
        'no backreferences, no lookaround; write \\uXXXX or \\x{…} for code points; see README "Built-in scorers"',
    );
    const lookahead = (await builtin('regex', { pattern: 'x(?=y)' }).catch((e: unknown) => e)) as EvalBindingError;
    expect(lookahead.code).toBe('EVAL_INVALID_OPTIONS');
    expect(lookahead.hint).toMatch(/^lookaround \(\(\?=, \(\?!, \(\?<=, \(\?<!\) are not supported: /);
    const flag = (await builtin('regex', { pattern: 'x', flags: 'q' }).catch((e: unknown) => e)) as EvalBindingError;
    expect(flag.message).toBe('eval "e": regex option: unknown flag "q" in "q"');
  });
  it('points at the pattern in agentmark.json when it knows the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'am-regex-'));
    const projectFile = join(dir, 'agentmark.json');
    await writeFile(projectFile, '{\n  "scores": {\n    "e": {\n      "type": "boolean",\n      "scorer": "regex",\n      "options": { "pattern": "(?<=a)b" }\n    }\n  }\n}\n');
    const error = (await builtin('regex', { pattern: '(?<=a)b' }, { projectFile }).catch((e: unknown) => e)) as EvalBindingError;
    expect(error.location).toEqual({ file: projectFile, line: 6, column: 31 });
    await rm(dir, { recursive: true });
  });
  it('accepts JavaScript\'s \\u escapes and the i, m, s flags', async () => {
    expect((await run('regex', { pattern: '^\\u0041\\u{42}$' }, { output: 'AB' })).passed).toBe(true);
    expect((await run('regex', { pattern: '^b$', flags: 'm' }, { output: 'a\nb\nc' })).passed).toBe(true);
    expect((await run('regex', { pattern: 'a.c', flags: 's' }, { output: 'a\nc' })).passed).toBe(true);
    expect((await run('regex', { pattern: 'a.c' }, { output: 'a\nc' })).passed).toBe(false);
  });
  it('requires a pattern', async () => {
    const error = (await builtin('regex', {}).catch((e: unknown) => e)) as EvalBindingError;
    expect(error.message).toBe('eval "e": invalid options for built-in "regex": must have required property \'pattern\'');
    expect(error.hint).toBe('options of regex: pattern (string, required), flags (string)');
  });
});

describe('starts_with', () => {
  it('passes, fails, ignores leading whitespace and case when asked', async () => {
    expect(await run('starts_with', { value: 'Yes' }, { output: '  Yes, sure' })).toEqual({ passed: true, score: 1, reason: 'output starts with "Yes"' });
    expect(await run('starts_with', { value: 'Yes' }, { output: 'No' })).toEqual({ passed: false, score: 0, reason: 'output does not start with "Yes"' });
    expect((await run('starts_with', { value: 'Yes', ignoreCase: true }, { output: 'yes' })).passed).toBe(true);
    expect((await run('starts_with', { value: 'Yes', trim: false }, { output: ' Yes' })).passed).toBe(false);
    expect((await run('starts_with', {}, { output: 'Paris, France', expectedOutput: 'Paris' })).passed).toBe(true);
  });
  it('rejects a bad option type', async () => {
    await expect(builtin('starts_with', { trim: 'yes' })).rejects.toThrow('/trim must be boolean');
  });
});

describe('one_of', () => {
  it('passes and fails listing the allowed values', async () => {
    const options = { values: ['positive', 'negative', 'neutral'] };
    expect(await run('one_of', options, { output: ' positive\n' })).toEqual({
      passed: true,
      score: 1,
      reason: 'output "positive" is one of: positive, negative, neutral',
    });
    expect(await run('one_of', options, { output: 'mixed' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output "mixed" is not one of: positive, negative, neutral',
    });
    expect((await run('one_of', { ...options, ignoreCase: true }, { output: 'POSITIVE' })).passed).toBe(true);
  });
  it('needs at least one value', async () => {
    await expect(builtin('one_of', { values: [] })).rejects.toThrow(
      'eval "e": invalid options for built-in "one_of": /values must NOT have fewer than 1 items',
    );
  });
});
