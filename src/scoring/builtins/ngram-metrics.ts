/**
 * Sentence-level overlap metrics over word tokens, written to give the same numbers as NLTK 3.8
 * (`nltk.translate`) for one reference: BLEU with smoothing method1, GLEU, METEOR (exact and
 * Porter-stem matches, no WordNet synonyms), and ROUGE-N / ROUGE-L F-measures. Tokens come from `tokenize`; the tests pass NLTK the
 * same tokens (`text.lower().split()`).
 */
import { porterStem } from './porter-stemmer.js';
import { MAX_CELLS } from './similarity.js';

/** Lower-case, then split on runs of whitespace: Python's `text.lower().split()` for ASCII text. */
export function tokenize(text: string): string[] {
  const trimmed = text.toLowerCase().trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/** Counts of each n-gram (joined with a separator no whitespace-split token contains). */
function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Clipped matches: each hypothesis n-gram counts at most as often as the reference has it. */
function overlap(hypothesis: Map<string, number>, reference: Map<string, number>): number {
  let matched = 0;
  for (const [gram, count] of hypothesis) matched += Math.min(count, reference.get(gram) ?? 0);
  return matched;
}

const total = (counts: Map<string, number>): number => [...counts.values()].reduce((a, b) => a + b, 0);

/**
 * `sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method1)`: uniform weights
 * over 1..4-grams, a precision with no matches counts as 0.1 / its denominator (method1,
 * epsilon 0.1), the denominator is at least 1, and no unigram match at all is 0.
 */
export function sentenceBleu(reference: string[], hypothesis: string[], maxOrder = 4): number {
  const logs: number[] = [];
  for (let n = 1; n <= maxOrder; n++) {
    const hyp = ngramCounts(hypothesis, n);
    const matched = overlap(hyp, ngramCounts(reference, n));
    if (n === 1 && matched === 0) return 0;
    const denominator = Math.max(1, total(hyp));
    logs.push(Math.log((matched === 0 ? 0.1 : matched) / denominator));
  }
  const c = hypothesis.length;
  const r = reference.length;
  const brevity = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  return brevity * Math.exp(logs.reduce((sum, log) => sum + log / maxOrder, 0));
}

/** `sentence_gleu([ref], hyp)`: matched 1..4-grams over the larger of the two sides' n-gram totals. */
export function sentenceGleu(reference: string[], hypothesis: string[], minLen = 1, maxLen = 4): number {
  let matched = 0;
  let hypTotal = 0;
  let refTotal = 0;
  for (let n = minLen; n <= maxLen; n++) {
    const hyp = ngramCounts(hypothesis, n);
    const ref = ngramCounts(reference, n);
    matched += overlap(hyp, ref);
    hypTotal += total(hyp);
    refTotal += total(ref);
  }
  const all = Math.max(hypTotal, refTotal);
  return all === 0 ? 0 : matched / all;
}

export interface FMeasure {
  precision: number;
  recall: number;
  f: number;
}

function fMeasure(matched: number, hypTotal: number, refTotal: number): FMeasure {
  const precision = hypTotal === 0 ? 0 : matched / hypTotal;
  const recall = refTotal === 0 ? 0 : matched / refTotal;
  const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f };
}

/** ROUGE-N: clipped n-gram matches over the hypothesis' (precision) and reference's (recall) n-grams; F1. */
export function rougeN(reference: string[], hypothesis: string[], n: number): FMeasure {
  const hyp = ngramCounts(hypothesis, n);
  const ref = ngramCounts(reference, n);
  return fMeasure(overlap(hyp, ref), total(hyp), total(ref));
}

function checkCells(a: number, b: number, metric: string): void {
  if (a * b > MAX_CELLS) {
    throw new Error(`${metric} compares texts of up to ${MAX_CELLS.toLocaleString('en-US')} words × words; these are ${a} × ${b} words`);
  }
}

/** ROUGE-L: the longest common subsequence of tokens over each side's length; F1. */
export function rougeL(reference: string[], hypothesis: string[]): FMeasure {
  checkCells(reference.length, hypothesis.length, 'rouge_l');
  let previous = new Uint32Array(reference.length + 1);
  let current = new Uint32Array(reference.length + 1);
  for (const word of hypothesis) {
    for (let j = 1; j <= reference.length; j++) {
      current[j] = word === reference[j - 1] ? (previous[j - 1] as number) + 1 : Math.max(previous[j] as number, current[j - 1] as number);
    }
    [previous, current] = [current, previous];
  }
  return fMeasure(previous[reference.length] as number, hypothesis.length, reference.length);
}

export interface MeteorResult {
  score: number;
  matches: number;
  chunks: number;
}

/**
 * `single_meteor_score(ref, hyp)` of NLTK without its WordNet synonym stage: exact matches, then
 * (with `stem`) matches of the Porter stems of the words left. Each stage aligns greedily as NLTK
 * does: the output's unmatched words from the last, each to the last unmatched equal reference
 * word. alpha 0.9, beta 3, gamma 0.5.
 */
export function meteor(reference: string[], hypothesis: string[], stem = false, alpha = 0.9, beta = 3, gamma = 0.5): MeteorResult {
  checkCells(reference.length, hypothesis.length, 'meteor');
  const refUsed = new Uint8Array(reference.length);
  const hypUsed = new Uint8Array(hypothesis.length);
  const pairs: Array<[number, number]> = [];
  const align = (hyp: string[], ref: string[]): void => {
    for (let i = hyp.length - 1; i >= 0; i--) {
      if (hypUsed[i] === 1) continue;
      for (let j = ref.length - 1; j >= 0; j--) {
        if (refUsed[j] === 0 && hyp[i] === ref[j]) {
          refUsed[j] = 1;
          hypUsed[i] = 1;
          pairs.push([i, j]);
          break;
        }
      }
    }
  };
  align(hypothesis, reference);
  if (stem) align(hypothesis.map(porterStem), reference.map(porterStem));
  const matches = pairs.length;
  if (matches === 0) return { score: 0, matches: 0, chunks: 0 };
  pairs.sort((a, b) => a[0] - b[0]);
  let chunks = 1;
  for (let k = 0; k + 1 < pairs.length; k++) {
    const [hi, rj] = pairs[k] as [number, number];
    const [nextHi, nextRj] = pairs[k + 1] as [number, number];
    if (!(nextHi === hi + 1 && nextRj === rj + 1)) chunks++;
  }
  const precision = matches / hypothesis.length;
  const recall = matches / reference.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const penalty = gamma * (chunks / matches) ** beta;
  return { score: (1 - penalty) * fmean, matches, chunks };
}
