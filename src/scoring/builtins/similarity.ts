import { editDistance } from '../../errors/index.js';
import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { normalizeText, outputText, requireExpectedText } from './text.js';

export interface LevenshteinOptions {
  /** Similarity (0..1) needed to pass. @default 0.8 */
  threshold?: number;
  /** Compare case-insensitively. @default false */
  ignoreCase?: boolean;
  /** Trim surrounding whitespace of both sides. @default true */
  trim?: boolean;
  /** Compare to this text instead of the row's expected output. @default the row's expected_output */
  value?: string;
}

/** 1 - distance / length of the longer text; two empty texts are identical. */
export function levenshteinSimilarity(a: string, b: string): { similarity: number; distance: number } {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return { similarity: 1, distance: 0 };
  const distance = editDistance(a, b);
  return { similarity: 1 - distance / longer, distance };
}

export const levenshtein = defineScorer<LevenshteinOptions>({
  name: 'levenshtein',
  description: 'Scores normalised edit-distance similarity to the expected output; passes at a threshold.',
  options: {
    type: 'object',
    properties: {
      threshold: { type: 'number', minimum: 0, maximum: 1 },
      ignoreCase: { type: 'boolean' },
      trim: { type: 'boolean' },
      value: { type: 'string' },
    },
    additionalProperties: false,
  },
  create: (options) => {
    const threshold = options.threshold ?? 0.8;
    return (params) => {
      const expected = normalizeText(options.value ?? requireExpectedText(params.expectedOutput, 'levenshtein'), options, true);
      const actual = normalizeText(outputText(params.output), options, true);
      const { similarity, distance } = levenshteinSimilarity(actual, expected);
      const passed = similarity >= threshold;
      const shown = Number(similarity.toFixed(3));
      return {
        score: similarity,
        passed,
        reason: `similarity ${shown} ${passed ? '>=' : '<'} threshold ${threshold} (${distance} edit${distance === 1 ? '' : 's'})`,
      };
    };
  },
});

export const similarityScorers: BuiltinScorer[] = [levenshtein];
