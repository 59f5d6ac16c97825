import type { BuiltinScorer, EvalParams, EvalResult } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { meteor, rougeL, rougeN, sentenceBleu, sentenceGleu, tokenize } from './ngram-metrics.js';
import { outputText, requireExpectedText } from './text.js';

export interface OverlapOptions {
  /** Score (0..1) needed to pass. @default per scorer: bleu, gleu, meteor 0.5; rouge 0.75 */
  threshold?: number;
  /** Compare to this text instead of the row's expected output. @default the row's expected_output */
  value?: string;
}

const threshold = { type: 'number', minimum: 0, maximum: 1, description: 'Score needed to pass.' } as const;
const value = { type: 'string', description: 'Reference text; defaults to expected_output.' } as const;

function tokens(options: OverlapOptions, params: EvalParams, scorer: string): { reference: string[]; hypothesis: string[] } {
  return {
    reference: tokenize(options.value ?? requireExpectedText(params.expectedOutput, scorer)),
    hypothesis: tokenize(outputText(params.output)),
  };
}

function scored(score: number, threshold: number, metric: string, detail: string): EvalResult {
  const passed = score >= threshold;
  return { score, passed, reason: `${metric} ${Number(score.toFixed(3))} ${passed ? '>=' : '<'} threshold ${threshold} (${detail})` };
}

const words = (hypothesis: string[], reference: string[]): string => `${hypothesis.length} vs ${reference.length} words`;

function overlapScorer(
  name: string,
  description: string,
  defaultThreshold: number,
  compute: (reference: string[], hypothesis: string[]) => { score: number; detail: string },
): BuiltinScorer {
  return defineScorer<OverlapOptions>({
    name,
    description,
    options: { type: 'object', properties: { threshold, value }, additionalProperties: false },
    create: (options) => {
      const bar = options.threshold ?? defaultThreshold;
      return (params) => {
        const { reference, hypothesis } = tokens(options, params, name);
        const { score, detail } = compute(reference, hypothesis);
        return scored(score, bar, name, detail);
      };
    },
  });
}

export const bleu = overlapScorer('bleu', 'Sentence BLEU (1..4-grams, smoothing method1) against the expected output; passes at a threshold.', 0.5, (reference, hypothesis) => ({
  score: sentenceBleu(reference, hypothesis),
  detail: words(hypothesis, reference),
}));

export const gleu = overlapScorer('gleu', 'Sentence GLEU (Google BLEU, 1..4-grams) against the expected output; passes at a threshold.', 0.5, (reference, hypothesis) => ({
  score: sentenceGleu(reference, hypothesis),
  detail: words(hypothesis, reference),
}));

export interface MeteorOptions extends OverlapOptions {
  /** After exact matches, match words by their Porter stems (NLTK's default stemmer). @default true */
  stem?: boolean;
}

export const meteorScorer = defineScorer<MeteorOptions>({
  name: 'meteor',
  description: 'METEOR (exact, then Porter-stem word matches; no synonyms) against the expected output; passes at a threshold.',
  options: {
    type: 'object',
    properties: { stem: { type: 'boolean', description: 'Also match Porter stems.' }, threshold, value },
    additionalProperties: false,
  },
  create: (options) => {
    const bar = options.threshold ?? 0.5;
    const stem = options.stem ?? true;
    return (params) => {
      const { reference, hypothesis } = tokens(options, params, 'meteor');
      const result = meteor(reference, hypothesis, stem);
      const chunks = `${result.chunks} chunk${result.chunks === 1 ? '' : 's'}`;
      return scored(result.score, bar, 'meteor', `${result.matches} matched words in ${chunks}, ${words(hypothesis, reference)}`);
    };
  },
});

export const rougeLScorer = overlapScorer('rouge_l', 'ROUGE-L F-measure (longest common word subsequence) against the expected output; passes at a threshold.', 0.75, (reference, hypothesis) => {
  const { precision, recall, f } = rougeL(reference, hypothesis);
  return { score: f, detail: `precision ${Number(precision.toFixed(3))}, recall ${Number(recall.toFixed(3))}` };
});

export interface RougeNOptions extends OverlapOptions {
  /** The n-gram order. @default 1 */
  n?: number;
}

export const rougeNScorer = defineScorer<RougeNOptions>({
  name: 'rouge_n',
  description: 'ROUGE-N F-measure (n-gram overlap) against the expected output; passes at a threshold.',
  options: {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 1, maximum: 9, description: 'n-gram order.' }, threshold, value },
    additionalProperties: false,
  },
  create: (options) => {
    const n = options.n ?? 1;
    const bar = options.threshold ?? 0.75;
    return (params) => {
      const { reference, hypothesis } = tokens(options, params, 'rouge_n');
      const { precision, recall, f } = rougeN(reference, hypothesis, n);
      return scored(f, bar, `rouge_${n}`, `precision ${Number(precision.toFixed(3))}, recall ${Number(recall.toFixed(3))}`);
    };
  },
});

export const overlapScorers: BuiltinScorer[] = [bleu, gleu, rougeNScorer, rougeLScorer, meteorScorer];
