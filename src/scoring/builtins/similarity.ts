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

/**
 * The most cells (length × length) one comparison may fill. Built-ins run on the main thread,
 * where no timer can interrupt them, so each must be bounded: 25 million cells take well under
 * a second (two 5,000-character texts); longer texts are an eval error, not a stalled run.
 */
export const MAX_CELLS = 25_000_000;

/** 1 - distance / length of the longer text; two empty texts are identical. */
export function levenshteinSimilarity(a: string, b: string): { similarity: number; distance: number } {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return { similarity: 1, distance: 0 };
  if (a.length * b.length > MAX_CELLS) {
    throw new Error(`levenshtein compares texts of up to ${MAX_CELLS.toLocaleString('en-US')} length × length; these are ${a.length} × ${b.length} characters`);
  }
  const distance = editDistance(a, b);
  return { similarity: 1 - distance / longer, distance };
}

/** Two-row Levenshtein distance over UTF-16 code units, in typed arrays (≈10× the plain-array version). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const remove = (previous[j] as number) + 1;
      const insert = (current[j - 1] as number) + 1;
      current[j] = substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
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
