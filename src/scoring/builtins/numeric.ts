import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { outputText } from './text.js';

export interface NumericOptions {
  /** Largest absolute difference that still passes. @default 0 */
  tolerance?: number;
  /** Compare to this number instead of the row's expected output. @default the row's expected_output */
  value?: number;
}

// Thousands separators are left out on purpose: "1,5" is a decimal in much of the world.
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/;

/** The first number written in a text, or undefined. */
export function firstNumber(text: string): number | undefined {
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  const value = Number(match[0]);
  return Number.isFinite(value) ? value : undefined;
}

function expectedNumber(expected: unknown): number {
  if (typeof expected === 'number' && Number.isFinite(expected)) return expected;
  if (typeof expected === 'string') {
    const value = firstNumber(expected);
    if (value !== undefined) return value;
  }
  if (expected === undefined) throw new Error('numeric needs expected_output on the row (or options.value)');
  throw new Error(`numeric: expected_output ${JSON.stringify(expected)} is not a number`);
}

export const numeric = defineScorer<NumericOptions>({
  name: 'numeric',
  description: 'Parses the first number in the output and compares it to the expected number within a tolerance.',
  options: {
    type: 'object',
    properties: { tolerance: { type: 'number', minimum: 0 }, value: { type: 'number' } },
    additionalProperties: false,
  },
  create: (options) => {
    const tolerance = options.tolerance ?? 0;
    return (params) => {
      const expected = options.value ?? expectedNumber(params.expectedOutput);
      const actual = firstNumber(outputText(params.output));
      if (actual === undefined) return { passed: false, score: 0, reason: 'no number found in output' };
      const difference = Math.abs(actual - expected);
      // Round the shown difference so float noise (0.30000000000000004) never reaches a report.
      const shown = Number(difference.toPrecision(12));
      return difference <= tolerance
        ? { passed: true, score: 1, reason: `output ${actual} is within ${tolerance} of expected ${expected}` }
        : { passed: false, score: 0, reason: `output ${actual} differs from expected ${expected} by ${shown} (tolerance ${tolerance})` };
    };
  },
});

export const numericScorers: BuiltinScorer[] = [numeric];
