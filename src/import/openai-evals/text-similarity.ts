import { evalName } from '../project-builder.js';
import { type Grader, type GraderContext, str } from './context.js';
import { FUZZY_RATIO_HELPER } from './fuzzy-helper.js';
import { isLiteral, isSampleOutput, soleItemField, templateToJs } from './templates.js';

/** Metric → our built-in scorer and the options it needs beyond threshold/value. */
const METRICS: Record<string, { scorer: string; options?: Record<string, unknown>; note?: string }> = {
  bleu: { scorer: 'bleu' },
  gleu: { scorer: 'gleu' },
  meteor: { scorer: 'meteor', note: 'meteor matches exact words and Porter stems, not WordNet synonyms, so a score can be lower than NLTK\'s' },
  rouge_1: { scorer: 'rouge_n', options: { n: 1 } },
  rouge_2: { scorer: 'rouge_n', options: { n: 2 } },
  rouge_3: { scorer: 'rouge_n', options: { n: 3 } },
  rouge_4: { scorer: 'rouge_n', options: { n: 4 } },
  rouge_5: { scorer: 'rouge_n', options: { n: 5 } },
  rouge_l: { scorer: 'rouge_l' },
  cosine: { scorer: 'similar', note: 'cosine uses the run\'s embedding model (default openai/text-embedding-3-small); OpenAI used text-embedding-3-large' },
};

export const SIMILARITY_METRICS = ['fuzzy_match', ...Object.keys(METRICS)];

/** text_similarity → the built-in metric with its pass_threshold; fuzzy_match → rapidfuzz's ratio in the config. */
export function importTextSimilarity(grader: Grader, path: Array<string | number>, ctx: GraderContext): string | undefined {
  const from = ctx.doc.ref(path);
  const metric = str(grader['evaluation_metric']) ?? '';
  const input = str(grader['input']);
  const reference = str(grader['reference']);
  const threshold = typeof grader['pass_threshold'] === 'number' ? grader['pass_threshold'] : undefined;
  const label = `text_similarity "${str(grader['name']) ?? ''}" (${metric})`;
  const verbatim = JSON.stringify(grader, null, 2);
  if (input === undefined || reference === undefined || threshold === undefined) {
    ctx.result.leftOut.push({ what: label, from, why: 'needs input, reference and pass_threshold', verbatim });
    return undefined;
  }
  const name = evalName(str(grader['name']) ?? '', metric);
  const description = `OpenAI Evals text_similarity (${metric}) of ${input} to ${reference}, passing at ${threshold}`;
  if (metric === 'fuzzy_match') {
    const got = templateToJs(input);
    const want = templateToJs(reference);
    if (got === undefined || want === undefined) {
      ctx.result.leftOut.push({ what: label, from, why: 'its templates use a namespace other than item.* and sample.output_text', verbatim });
      return undefined;
    }
    ctx.builder.addHelper('fuzzyRatio', FUZZY_RATIO_HELPER);
    const source = [
      '({ input, output }) => {',
      `  const score = fuzzyRatio(${got}, ${want});`,
      `  return { score, passed: score >= ${threshold}, reason: \`fuzzy ratio \${score.toFixed(3)} (pass at ${threshold})\` };`,
      '}',
    ].join('\n');
    const used = ctx.builder.addConfigScorer(name, { type: 'numeric', min: 0, max: 1, description }, source, `OpenAI Evals text_similarity (fuzzy_match), from ${from.file}${from.line ? `:${from.line}` : ''}`);
    ctx.result.imported.push({ what: label, from, to: `eval ${used} (scorer in agentmark.config.ts)` });
    return used;
  }
  const target = METRICS[metric];
  if (target === undefined) {
    ctx.result.leftOut.push({ what: label, from, why: `unknown evaluation_metric "${metric}" (known: ${SIMILARITY_METRICS.join(', ')})`, verbatim });
    return undefined;
  }
  const expected = soleItemField(reference) !== undefined && soleItemField(reference) === ctx.expectedField;
  if (!isSampleOutput(input) || !(expected || isLiteral(reference))) {
    ctx.result.leftOut.push({
      what: label,
      from,
      why: `${target.scorer} compares the output to the row's expected output (${ctx.expectedField ? `item.${ctx.expectedField}` : 'none'}) or a fixed text; this grader compares ${input} to ${reference}`,
      verbatim,
    });
    return undefined;
  }
  const options = { ...target.options, threshold, ...(isLiteral(reference) ? { value: reference } : {}) };
  // A cosine lies in -1..1; the overlap metrics in 0..1.
  const range = target.scorer === 'similar' ? { min: -1, max: 1 } : { min: 0, max: 1 };
  const used = ctx.builder.addScore(name, { type: 'numeric', ...range, description, scorer: target.scorer, options });
  ctx.result.imported.push({ what: label, from, to: `eval ${used} (${target.scorer})` });
  if (target.note !== undefined) ctx.result.notes.push({ what: label, from, why: target.note });
  return used;
}
