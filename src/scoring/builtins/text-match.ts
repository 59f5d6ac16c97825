import { EvalBindingError } from '../../errors/index.js';
import type { BuiltinScorer, EvalParams, EvalResult, ScorerContext } from '../types.js';
import { compileSafeRegex, UnsupportedPattern, type SafeRegex } from '../safe-regex.js';
import { firstDifference } from './deep-equal.js';
import { defineScorer } from './define-scorer.js';
import { normalizeText, outputText, parseJson, quote, requireExpectedText } from './text.js';

export const ignoreCase = { type: 'boolean', description: 'Compare case-insensitively.' };
const trim = { type: 'boolean', description: 'Trim surrounding whitespace before comparing.' };

export function verdict(passed: boolean, reason: string): EvalResult {
  return { passed, score: passed ? 1 : 0, reason };
}

export interface ExactMatchOptions {
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
  /** Trim surrounding whitespace of both sides; models often add a trailing newline. @default true */
  trim?: boolean;
  /** Parse both sides as JSON and compare structurally (key order ignored). @default false */
  json?: boolean;
}

export const exactMatch = defineScorer<ExactMatchOptions>({
  name: 'exact_match',
  description: 'Passes when the output equals the expected output (optionally as JSON).',
  options: {
    type: 'object',
    properties: { ignoreCase, trim, json: { type: 'boolean', description: 'Compare as parsed JSON.' } },
    additionalProperties: false,
  },
  create: (options) => (params) => {
    if (options.json) {
      if (params.expectedOutput === undefined) throw new Error('exact_match needs expected_output on the row');
      const actual = parseJson(params.output);
      if (!actual.ok) return verdict(false, `output is not valid JSON: ${actual.error}`);
      const expected = parseJson(params.expectedOutput);
      if (!expected.ok) throw new Error(`expected_output is not valid JSON: ${expected.error}`);
      const diff = firstDifference(actual.value, expected.value);
      return diff === undefined
        ? verdict(true, 'output equals expected (JSON)')
        : verdict(false, `output differs from expected at ${diff}`);
    }
    const expectedRaw = requireExpectedText(params.expectedOutput, 'exact_match');
    const actual = normalizeText(outputText(params.output), options, true);
    const expected = normalizeText(expectedRaw, options, true);
    return actual === expected
      ? verdict(true, 'output equals expected')
      : verdict(false, `output ${quote(actual)} does not equal expected ${quote(expected)}`);
  },
});

export interface ContainsOptions {
  /** The text to look for. @default the row's expected_output */
  value?: string;
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
}

const containsOptions = {
  type: 'object',
  properties: { value: { type: 'string', description: 'Text to look for; defaults to expected_output.' }, ignoreCase },
  additionalProperties: false,
};

function containsCheck(options: ContainsOptions, output: EvalParams['output'], expectedOutput: unknown, scorer: string) {
  const needle = options.value ?? requireExpectedText(expectedOutput, scorer);
  const text = outputText(output);
  const found = options.ignoreCase ? text.toLowerCase().includes(needle.toLowerCase()) : text.includes(needle);
  return { found, needle: quote(needle) };
}

export const contains = defineScorer<ContainsOptions>({
  name: 'contains',
  description: 'Passes when the output contains a value (or the expected output).',
  options: containsOptions,
  create: (options) => (params) => {
    const { found, needle } = containsCheck(options, params.output, params.expectedOutput, 'contains');
    return verdict(found, found ? `output contains ${needle}` : `output does not contain ${needle}`);
  },
});

/**
 * promptfoo's `icontains`: `contains` that always ignores case, a name of its own so that an
 * imported test can hold both (`contains` with `ignoreCase: true` is the same check).
 */
export const icontains = defineScorer<Omit<ContainsOptions, 'ignoreCase'>>({
  name: 'icontains',
  description: 'Passes when the output contains a value (or the expected output), ignoring case.',
  options: { type: 'object', properties: { value: containsOptions.properties.value }, additionalProperties: false },
  create: (options) => (params) => {
    const { found, needle } = containsCheck({ ...options, ignoreCase: true }, params.output, params.expectedOutput, 'icontains');
    return verdict(found, found ? `output contains ${needle} (ignoring case)` : `output does not contain ${needle} (ignoring case)`);
  },
});

export const notContains = defineScorer<ContainsOptions>({
  name: 'not_contains',
  description: 'Passes when the output does not contain a value (or the expected output).',
  options: containsOptions,
  create: (options) => (params) => {
    const { found, needle } = containsCheck(options, params.output, params.expectedOutput, 'not_contains');
    return verdict(!found, found ? `output contains ${needle}` : `output does not contain ${needle}`);
  },
});

export interface RegexOptions {
  /**
   * A regular expression in RE2 syntax (JavaScript's without backreferences and lookaround),
   * without slashes; it matches in time linear in the output. Required.
   */
  pattern: string;
  /** `i`, `m`, `s`; `g`, `y`, `d`, `u` and `v` are accepted and change nothing. @default "" */
  flags?: string;
}

export const regexOptions = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Regular expression in RE2 syntax, without slashes.' },
    flags: { type: 'string', description: 'Flags: i, m, s.' },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

export const regex = defineScorer<RegexOptions>({
  name: 'regex',
  description: 'Passes when the output matches a regular expression (RE2 syntax, linear time).',
  options: regexOptions,
  create: async (options, ctx) => {
    const re = await bindRegex(options, ctx, 'regex');
    return (params) => {
      const matched = re.test(outputText(params.output));
      return verdict(matched, matched ? `output matches ${re.shown}` : `output does not match ${re.shown}`);
    };
  },
});

/** Compiles a scorer's `pattern`; a pattern RE2 refuses is a binding error at the option's file:line:col. */
export async function bindRegex(options: RegexOptions, ctx: ScorerContext, scorer: string): Promise<SafeRegex> {
  try {
    return await compileSafeRegex(options.pattern, options.flags);
  } catch (error) {
    if (!(error instanceof UnsupportedPattern)) throw error;
    throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": ${scorer} option: ${error.message}`, {
      location: ctx.locateOption ? await ctx.locateOption('pattern') : { file: ctx.promptPath },
      hint: error.hint,
    });
  }
}

export interface StartsWithOptions {
  /** The prefix. @default the row's expected_output */
  value?: string;
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
  /** Ignore leading whitespace of the output. @default true */
  trim?: boolean;
}

export const startsWith = defineScorer<StartsWithOptions>({
  name: 'starts_with',
  description: 'Passes when the output starts with a value (or the expected output).',
  options: {
    type: 'object',
    properties: { value: { type: 'string', description: 'Prefix; defaults to expected_output.' }, ignoreCase, trim },
    additionalProperties: false,
  },
  create: (options) => (params) => {
    const prefix = options.value ?? requireExpectedText(params.expectedOutput, 'starts_with');
    let text = outputText(params.output);
    if (options.trim ?? true) text = text.trimStart();
    const ok = options.ignoreCase ? text.toLowerCase().startsWith(prefix.toLowerCase()) : text.startsWith(prefix);
    return verdict(ok, ok ? `output starts with ${quote(prefix)}` : `output does not start with ${quote(prefix)}`);
  },
});

export interface OneOfOptions {
  /** The allowed outputs. Required, at least one. */
  values: string[];
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
  /** Trim surrounding whitespace of the output. @default true */
  trim?: boolean;
}

export const oneOf = defineScorer<OneOfOptions>({
  name: 'one_of',
  description: 'Passes when the output equals one of the allowed values.',
  options: {
    type: 'object',
    properties: { values: { type: 'array', items: { type: 'string' }, minItems: 1 }, ignoreCase, trim },
    required: ['values'],
    additionalProperties: false,
  },
  create: (options) => {
    const allowed = new Set(options.values.map((value) => normalizeText(value, options, true)));
    const list = options.values.join(', ');
    return (params) => {
      const text = normalizeText(outputText(params.output), options, true);
      return allowed.has(text)
        ? verdict(true, `output ${quote(text)} is one of: ${list}`)
        : verdict(false, `output ${quote(text)} is not one of: ${list}`);
    };
  },
});

export const textMatchScorers: BuiltinScorer[] = [exactMatch, contains, icontains, notContains, regex, startsWith, oneOf];
