/**
 * Reference values for bleu, gleu and meteor come from NLTK 3.8 (Debian's python3-nltk), called
 * on the same tokens our tokenizer makes, `r, h = ref.lower().split(), hyp.lower().split()`:
 *   bleu:   nltk.translate.bleu_score.sentence_bleu([r], h, smoothing_function=SmoothingFunction().method1)
 *   gleu:   nltk.translate.gleu_score.sentence_gleu([r], h)
 *   meteor (stem: false): nltk.translate.meteor_score.single_meteor_score(r, h, stemmer=Identity(), wordnet=NoWordNet())
 *   meteorStem (stem: true, the default): single_meteor_score(r, h, wordnet=NoWordNet()), NLTK's
 *           default PorterStemmer()
 *           where Identity().stem(w) returns w and NoWordNet().synsets(w) returns [] — NLTK's
 *           exact-match stage alone, or exact then stem stages: what our meteor implements.
 * Porter stems: nltk.stem.porter.PorterStemmer().stem(w) for each word of STEMS below.
 * NLTK has no ROUGE; rouge_1, rouge_2 and rouge_l were computed in Python from the formulas
 * (collections.Counter intersection for clipped n-gram matches, the textbook LCS table), F1 of
 * precision over the output's n-grams/words and recall over the reference's.
 */
import { describe, expect, it } from 'vitest';
import { porterStem } from '../../src/scoring/builtins/porter-stemmer.js';
import { meteor, rougeL, rougeN, sentenceBleu, sentenceGleu, tokenize } from '../../src/scoring/builtins/ngram-metrics.js';
import { builtin, run } from './fixtures.js';

interface Case {
  reference: string;
  output: string;
  bleu: number;
  gleu: number;
  meteor: number;
  meteorStem: number;
  rouge1: number;
  rouge2: number;
  rougeL: number;
}

const CASES: Record<string, Case> = {
  identical: { reference: 'the cat sat on the mat', output: 'the cat sat on the mat', bleu: 1.0, gleu: 1.0, meteor: 0.9976851851851852, meteorStem: 0.9976851851851852, rouge1: 1, rouge2: 1, rougeL: 1 },
  disjoint: { reference: 'the cat sat on the mat', output: 'a dog ran in a park', bleu: 0, gleu: 0, meteor: 0, meteorStem: 0, rouge1: 0, rouge2: 0, rougeL: 0 },
  'partial overlap': {
    reference: 'the quick brown fox jumps over the lazy dog',
    output: 'the fast brown fox jumped over the lazy dog',
    bleu: 0.36889397323344053,
    gleu: 0.4666666666666667,
    meteor: 0.7471655328798186,
    meteorStem: 0.8819444444444444,
    rouge1: 0.7777777777777778,
    rouge2: 0.5,
    rougeL: 0.7777777777777778,
  },
  'output shorter (brevity penalty)': {
    reference: 'the cat sat on the mat today',
    output: 'the cat on the mat',
    bleu: 0.2241350160088414,
    gleu: 0.4090909090909091,
    meteor: 0.711764705882353, meteorStem: 0.711764705882353,
    rouge1: 0.8333333333333333,
    rouge2: 0.6,
    rougeL: 0.8333333333333333,
  },
  'output longer than a 2-word reference': {
    reference: 'a cat',
    output: 'there is a cat on the mat',
    bleu: 0.06985342056580097,
    gleu: 0.13636363636363635,
    meteor: 0.75, meteorStem: 0.75,
    rouge1: 0.4444444444444445,
    rouge2: 0.2857142857142857,
    rougeL: 0.4444444444444445,
  },
  'repeated word (clipped counts)': {
    reference: 'the cat is on the mat',
    output: 'the the the the the the the',
    bleu: 0.039281465090051315,
    gleu: 0.09090909090909091,
    meteor: 0.1639344262295082, meteorStem: 0.1639344262295082,
    rouge1: 0.30769230769230765,
    rouge2: 0,
    rougeL: 0.30769230769230765,
  },
  'reordered, mixed case': {
    reference: 'Paris is the capital of France',
    output: 'France has Paris as the capital',
    bleu: 0.10266900960803409,
    gleu: 0.2777777777777778,
    meteor: 0.5260416666666666, meteorStem: 0.5260416666666666,
    rouge1: 0.6666666666666666,
    rouge2: 0.20000000000000004,
    rougeL: 0.5,
  },
  'inflected forms (stems match)': {
    reference: 'the runners were running and connected the connections',
    output: 'a runner runs connecting connection and running',
    bleu: 0.034052233956373766,
    gleu: 0.07692307692307693,
    meteor: 0.12658227848101264,
    meteorStem: 0.31645569620253167,
    rouge1: 0.26666666666666666,
    rouge2: 0,
    rougeL: 0.13333333333333333,
  },
  'inflected forms, reordered': {
    reference: 'she studies generously and hopes',
    output: 'hoped studied generous study she',
    bleu: 0.05372849659117709,
    gleu: 0.07142857142857142,
    meteor: 0.10000000000000002,
    meteorStem: 0.4000000000000001,
    rouge1: 0.20000000000000004,
    rouge2: 0,
    rougeL: 0.20000000000000004,
  },
};

describe.each(Object.entries(CASES))('%s', (_name, c) => {
  const r = tokenize(c.reference);
  const h = tokenize(c.output);
  it('bleu matches nltk sentence_bleu with method1', () => expect(sentenceBleu(r, h)).toBeCloseTo(c.bleu, 9));
  it('gleu matches nltk sentence_gleu', () => expect(sentenceGleu(r, h)).toBeCloseTo(c.gleu, 9));
  it('meteor matches nltk single_meteor_score (exact stage only)', () => expect(meteor(r, h, false).score).toBeCloseTo(c.meteor, 9));
  it('meteor with stems matches nltk single_meteor_score (exact, then Porter stems)', () => expect(meteor(r, h, true).score).toBeCloseTo(c.meteorStem, 9));
  it('rouge_1, rouge_2, rouge_l match the formulas', () => {
    expect(rougeN(r, h, 1).f).toBeCloseTo(c.rouge1, 9);
    expect(rougeN(r, h, 2).f).toBeCloseTo(c.rouge2, 9);
    expect(rougeL(r, h).f).toBeCloseTo(c.rougeL, 9);
  });
});

/** nltk.stem.porter.PorterStemmer().stem(w), NLTK 3.8's default NLTK_EXTENSIONS mode, for words chosen to reach every rule. */
const STEMS: Record<string, string> = {
  caresses: 'caress', ponies: 'poni', ties: 'tie', caress: 'caress', cats: 'cat', feed: 'feed', agreed: 'agre',
  plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing', conflated: 'conflat', troubled: 'troubl',
  sized: 'size', hopping: 'hop', tanned: 'tan', falling: 'fall', hissing: 'hiss', fizzed: 'fizz', failing: 'fail',
  filing: 'file', happy: 'happi', sky: 'sky', relational: 'relat', conditional: 'condit', rational: 'ration',
  valenci: 'valenc', hesitanci: 'hesit', digitizer: 'digit', conformabli: 'conform', radicalli: 'radic',
  differentli: 'differ', vileli: 'vile', analogousli: 'analog', vietnamization: 'vietnam', predication: 'predic',
  operator: 'oper', feudalism: 'feudal', decisiveness: 'decis', hopefulness: 'hope', callousness: 'callous',
  formaliti: 'formal', sensitiviti: 'sensit', sensibiliti: 'sensibl', triplicate: 'triplic', formative: 'form',
  formalize: 'formal', electriciti: 'electr', electrical: 'electr', hopeful: 'hope', goodness: 'good',
  revival: 'reviv', allowance: 'allow', inference: 'infer', airliner: 'airlin', gyroscopic: 'gyroscop',
  adjustable: 'adjust', defensible: 'defens', irritant: 'irrit', replacement: 'replac', adjustment: 'adjust',
  dependent: 'depend', adoption: 'adopt', homologou: 'homolog', communism: 'commun', activate: 'activ',
  angulariti: 'angular', homologous: 'homolog', effective: 'effect', bowdlerize: 'bowdler', probate: 'probat',
  rate: 'rate', cease: 'ceas', controll: 'control', roll: 'roll', generously: 'gener', dying: 'die', lying: 'lie',
  tying: 'tie', news: 'news', innings: 'inning', outings: 'outing', cannings: 'canning', howe: 'howe',
  proceed: 'proceed', exceed: 'exceed', succeed: 'succeed', skies: 'sky', died: 'die', tied: 'tie', cried: 'cri',
  spied: 'spi', flies: 'fli', studies: 'studi', studied: 'studi', agreement: 'agreement', jumps: 'jump',
  jumped: 'jump', jumping: 'jump', fast: 'fast', quickly: 'quickli', running: 'run', runs: 'run', ran: 'ran',
  easily: 'easili', fairly: 'fairli', analogi: 'analog', logically: 'logic', biology: 'biolog', happily: 'happili',
  fully: 'fulli', carefully: 'care', helpfulli: 'help', dogs: 'dog', going: 'go', goes: 'goe', is: 'is', as: 'as',
  was: 'wa', this: 'thi', universal: 'univers', university: 'univers', universe: 'univers', organization: 'organ',
  organize: 'organ', organs: 'organ', generalization: 'gener', generalizations: 'gener', argued: 'argu',
  arguing: 'argu', argument: 'argument', hoped: 'hope', hoping: 'hope', hopes: 'hope', relate: 'relat',
  relativity: 'rel', relativistic: 'relativist', connection: 'connect', connections: 'connect', connective: 'connect',
  connected: 'connect', connecting: 'connect',
}
;

describe('porterStem', () => {
  it('gives NLTK\'s stem for each word', () => {
    expect(Object.fromEntries(Object.keys(STEMS).map((word) => [word, porterStem(word)]))).toEqual(STEMS);
  });
});

describe('tokenize', () => {
  it('lower-cases and splits on whitespace, as Python\'s text.lower().split()', () => {
    expect(tokenize('  The  Cat\tsat\n')).toEqual(['the', 'cat', 'sat']);
    expect(tokenize('   ')).toEqual([]);
  });
});

describe('the scorers', () => {
  const c = CASES['partial overlap'] as Case;
  it('score the output against expected_output with a reason for the verdict', async () => {
    expect(await run('bleu', {}, { output: c.output, expectedOutput: c.reference })).toEqual({
      score: sentenceBleu(tokenize(c.reference), tokenize(c.output)),
      passed: false,
      reason: 'bleu 0.369 < threshold 0.5 (9 vs 9 words)',
    });
    expect(await run('gleu', { threshold: 0.4 }, { output: c.output, expectedOutput: c.reference })).toMatchObject({
      passed: true,
      reason: 'gleu 0.467 >= threshold 0.4 (9 vs 9 words)',
    });
    expect(await run('meteor', {}, { output: c.output, expectedOutput: c.reference })).toMatchObject({
      passed: true,
      reason: 'meteor 0.882 >= threshold 0.5 (8 matched words in 2 chunks, 9 vs 9 words)',
    });
    expect(await run('meteor', { stem: false }, { output: c.output, expectedOutput: c.reference })).toMatchObject({
      passed: true,
      reason: 'meteor 0.747 >= threshold 0.5 (7 matched words in 3 chunks, 9 vs 9 words)',
    });
    expect(await run('rouge_n', { n: 2 }, { output: c.output, expectedOutput: c.reference })).toMatchObject({
      score: 0.5,
      passed: false,
      reason: 'rouge_2 0.5 < threshold 0.75 (precision 0.5, recall 0.5)',
    });
    expect(await run('rouge_l', {}, { output: c.output, expectedOutput: c.reference })).toMatchObject({
      passed: true,
      reason: 'rouge_l 0.778 >= threshold 0.75 (precision 0.778, recall 0.778)',
    });
  });
  it('compare to a value from options instead of expected_output', async () => {
    expect((await run('rouge_n', { value: 'a b c' }, { output: 'A B C' })).score).toBe(1);
  });
  it('need a reference', async () => {
    await expect(run('bleu', {}, { output: 'x' })).rejects.toThrow('bleu needs expected_output on the row (or a value in its options)');
  });
  it('check options when bound', async () => {
    await expect(builtin('bleu', { threshold: 2 })).rejects.toThrow('invalid options for built-in "bleu": /threshold must be <= 1');
    await expect(builtin('rouge_n', { n: 0 })).rejects.toThrow('invalid options for built-in "rouge_n": /n must be >= 1');
    await expect(builtin('meteor', { alpha: 1 })).rejects.toThrow('invalid options for built-in "meteor": must NOT have additional properties (alpha)');
  });
  it('an empty output scores 0 everywhere', async () => {
    for (const name of ['bleu', 'gleu', 'meteor', 'rouge_n', 'rouge_l']) {
      expect((await run(name, {}, { output: '', expectedOutput: 'a b' })).score).toBe(0);
    }
  });
});
