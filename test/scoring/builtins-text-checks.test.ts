import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalBindingError } from '../../src/errors/index.js';
import { builtin, run } from './fixtures.js';

describe('contains_any / contains_all', () => {
  it('contains_any passes on one value and names those found', async () => {
    expect(await run('contains_any', { values: ['Paris', 'Lyon', 'Nice'] }, { output: 'Lyon or Nice' })).toEqual({
      passed: true,
      score: 1,
      reason: 'output contains "Lyon", "Nice"',
    });
    expect(await run('contains_any', { values: ['Paris', 'Lyon'] }, { output: 'Berlin' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output contains none of "Paris", "Lyon"',
    });
  });
  it('contains_all passes only on every value and names the missing ones', async () => {
    expect(await run('contains_all', { values: ['a', 'b'] }, { output: 'b a' })).toEqual({ passed: true, score: 1, reason: 'output contains all 2 values' });
    expect(await run('contains_all', { values: ['Paris', 'Lyon', 'Nice'] }, { output: 'Paris only' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output is missing "Lyon", "Nice"',
    });
  });
  it('ignoreCase lowers both sides (promptfoo icontains-any / icontains-all)', async () => {
    expect((await run('contains_any', { values: ['PARIS'] }, { output: 'paris' })).passed).toBe(false);
    expect((await run('contains_any', { values: ['PARIS'], ignoreCase: true }, { output: 'paris' })).passed).toBe(true);
    expect((await run('contains_all', { values: ['PARIS', 'lyon'], ignoreCase: true }, { output: 'Paris, LYON' })).passed).toBe(true);
  });
  it('contains with ignoreCase is the check icontains makes (test/scoring/builtins-tool-schemas.test.ts)', async () => {
    expect((await run('contains', { value: 'PARIS', ignoreCase: true }, { output: 'paris' })).passed).toBe(true);
    expect((await run('icontains', { value: 'PARIS' }, { output: 'paris' })).passed).toBe(true);
  });
  it('sees object outputs as JSON', async () => {
    expect((await run('contains_all', { values: ['"city":"Paris"'] }, { output: { city: 'Paris' } })).passed).toBe(true);
  });
  it('requires a non-empty list of strings', async () => {
    await expect(builtin('contains_any', {})).rejects.toThrow(
      'eval "e": invalid options for built-in "contains_any": must have required property \'values\'',
    );
    await expect(builtin('contains_all', { values: [] })).rejects.toThrow(
      'eval "e": invalid options for built-in "contains_all": /values must NOT have fewer than 1 items',
    );
    await expect(builtin('contains_all', { values: [1] })).rejects.toThrow(
      'eval "e": invalid options for built-in "contains_all": /values/0 must be string',
    );
  });
});

describe('not_regex', () => {
  it('passes when the output does not match, fails naming the pattern when it does', async () => {
    expect(await run('not_regex', { pattern: '\\bsorry\\b', flags: 'i' }, { output: 'Sure!' })).toEqual({
      passed: true,
      score: 1,
      reason: 'output does not match /\\bsorry\\b/i',
    });
    expect(await run('not_regex', { pattern: '\\bsorry\\b', flags: 'i' }, { output: 'I am SORRY' })).toEqual({
      passed: false,
      score: 0,
      reason: 'output matches /\\bsorry\\b/i',
    });
  });
  it('uses RE2: lookaround is a binding error pointing at the pattern in agentmark.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'am-not-regex-'));
    const projectFile = join(dir, 'agentmark.json');
    await writeFile(projectFile, '{\n  "scores": {\n    "e": {\n      "type": "boolean",\n      "scorer": "not_regex",\n      "options": { "pattern": "(?<=a)b" }\n    }\n  }\n}\n');
    const error = (await builtin('not_regex', { pattern: '(?<=a)b' }, { projectFile }).catch((e: unknown) => e)) as EvalBindingError;
    expect(error).toBeInstanceOf(EvalBindingError);
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    expect(error.message).toMatch(/^eval "e": not_regex option: unsupported or invalid pattern \/\(\?<=a\)b\/: /);
    expect(error.hint).toMatch(/^lookaround /);
    expect(error.location).toEqual({ file: projectFile, line: 6, column: 31 });
    await rm(dir, { recursive: true });
  });
  it('requires a pattern', async () => {
    await expect(builtin('not_regex', {})).rejects.toThrow("invalid options for built-in \"not_regex\": must have required property 'pattern'");
  });
});

describe('word_count', () => {
  it('counts runs of non-whitespace and checks min and max, with a reason each way', async () => {
    expect(await run('word_count', { min: 2, max: 4 }, { output: '  one two\nthree\t ' })).toEqual({ passed: true, score: 1, reason: '3 words, within 2..4' });
    expect(await run('word_count', { min: 2 }, { output: 'one' })).toEqual({ passed: false, score: 0, reason: '1 word, fewer than min 2' });
    expect(await run('word_count', { max: 2 }, { output: 'a b c' })).toEqual({ passed: false, score: 0, reason: '3 words, more than max 2' });
    expect(await run('word_count', { max: 2 }, { output: '   ' })).toEqual({ passed: true, score: 1, reason: '0 words, within <= 2' });
    expect(await run('word_count', { min: 1 }, { output: 'x' })).toEqual({ passed: true, score: 1, reason: '1 word, within >= 1' });
  });
  it('needs min or max, as integers', async () => {
    await expect(builtin('word_count', {})).rejects.toThrow('invalid options for built-in "word_count"');
    await expect(builtin('word_count', { min: 1.5 })).rejects.toThrow('invalid options for built-in "word_count": /min must be integer');
  });
  it('min above max is a binding error at the option in agentmark.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'am-word-count-'));
    const projectFile = join(dir, 'agentmark.json');
    await writeFile(projectFile, '{\n  "scores": {\n    "e": { "type": "boolean", "scorer": "word_count", "options": { "min": 5, "max": 2 } }\n  }\n}\n');
    const error = (await builtin('word_count', { min: 5, max: 2 }, { projectFile }).catch((e: unknown) => e)) as EvalBindingError;
    expect(error).toBeInstanceOf(EvalBindingError);
    expect(error.message).toBe('eval "e": word_count option: min 5 is greater than max 2');
    expect(error.location).toEqual({ file: projectFile, line: 3, column: 75 });
    await rm(dir, { recursive: true });
  });
});
