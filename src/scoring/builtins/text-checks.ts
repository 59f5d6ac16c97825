import { EvalBindingError } from '../../errors/index.js';
import type { BuiltinScorer, EvalParams } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { outputText, quote } from './text.js';
import { bindRegex, ignoreCase, regexOptions, verdict, type RegexOptions } from './text-match.js';

export interface ContainsSetOptions {
  /** The texts to look for. Required, at least one. */
  values: string[];
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
}

const containsSetOptions = {
  type: 'object',
  properties: { values: { type: 'array', items: { type: 'string' }, minItems: 1 }, ignoreCase },
  required: ['values'],
  additionalProperties: false,
} as const;

/** Splits the values into those the output contains and those it does not, in the options' order. */
function partition(options: ContainsSetOptions, output: EvalParams['output']): { found: string[]; missing: string[] } {
  const raw = outputText(output);
  const text = options.ignoreCase ? raw.toLowerCase() : raw;
  const found: string[] = [];
  const missing: string[] = [];
  for (const value of options.values) {
    (text.includes(options.ignoreCase ? value.toLowerCase() : value) ? found : missing).push(value);
  }
  return { found, missing };
}

const list = (values: string[]): string => values.map((value) => quote(value)).join(', ');

export const containsAny = defineScorer<ContainsSetOptions>({
  name: 'contains_any',
  description: 'Passes when the output contains at least one of the values.',
  options: containsSetOptions,
  create: (options) => (params) => {
    const { found } = partition(options, params.output);
    return found.length > 0
      ? verdict(true, `output contains ${list(found)}`)
      : verdict(false, `output contains none of ${list(options.values)}`);
  },
});

export const containsAll = defineScorer<ContainsSetOptions>({
  name: 'contains_all',
  description: 'Passes when the output contains every one of the values.',
  options: containsSetOptions,
  create: (options) => (params) => {
    const { missing } = partition(options, params.output);
    return missing.length === 0
      ? verdict(true, `output contains all ${options.values.length} values`)
      : verdict(false, `output is missing ${list(missing)}`);
  },
});

export const notRegex = defineScorer<RegexOptions>({
  name: 'not_regex',
  description: 'Passes when the output does not match a regular expression (RE2 syntax, linear time).',
  options: regexOptions,
  create: async (options, ctx) => {
    const re = await bindRegex(options, ctx, 'not_regex');
    return (params) => {
      const matched = re.test(outputText(params.output));
      return verdict(!matched, matched ? `output matches ${re.shown}` : `output does not match ${re.shown}`);
    };
  },
});

export interface WordCountOptions {
  /** The fewest words allowed. @default no lower bound */
  min?: number;
  /** The most words allowed. @default no upper bound */
  max?: number;
}

/** Words are runs of non-whitespace, as promptfoo's word-count and `text.split(/\s+/)` count them. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

export const wordCount = defineScorer<WordCountOptions>({
  name: 'word_count',
  description: 'Passes when the number of words in the output is within min..max.',
  options: {
    type: 'object',
    properties: {
      min: { type: 'integer', minimum: 0, description: 'Fewest words allowed.' },
      max: { type: 'integer', minimum: 0, description: 'Most words allowed.' },
    },
    minProperties: 1,
    additionalProperties: false,
  },
  create: async (options, ctx) => {
    const { min, max } = options;
    if (min !== undefined && max !== undefined && min > max) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": word_count option: min ${min} is greater than max ${max}`, {
        location: ctx.locateOption ? await ctx.locateOption('min') : { file: ctx.promptPath },
        hint: 'give min <= max',
      });
    }
    const range = min !== undefined && max !== undefined ? `${min}..${max}` : min !== undefined ? `>= ${min}` : `<= ${max}`;
    return (params) => {
      const count = countWords(outputText(params.output));
      const words = `${count} word${count === 1 ? '' : 's'}`;
      if (min !== undefined && count < min) return verdict(false, `${words}, fewer than min ${min}`);
      if (max !== undefined && count > max) return verdict(false, `${words}, more than max ${max}`);
      return verdict(true, `${words}, within ${range}`);
    };
  },
});

export const textCheckScorers: BuiltinScorer[] = [containsAny, containsAll, notRegex, wordCount];
