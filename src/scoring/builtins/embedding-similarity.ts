import { EvalBindingError } from '../../errors/index.js';
import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { outputText, requireExpectedText } from './text.js';

/** promptfoo's default for `similar`. */
export const DEFAULT_EMBEDDING_MODEL = 'openai/text-embedding-3-small';

export interface SimilarOptions {
  /** Cosine similarity (-1..1) needed to pass. @default 0.75 */
  threshold?: number;
  /** Compare to this text instead of the row's expected output. @default the row's expected_output */
  value?: string;
  /** The embedding model, `provider/model`. @default openai/text-embedding-3-small */
  model?: string;
}

/** cos(a, b) = a·b / (|a| |b|); 0 when either vector is all zeros (nothing to compare). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`embeddings of different lengths (${a.length} and ${b.length}) cannot be compared`);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

/**
 * promptfoo's `similar`: the cosine of the output's and the reference's embeddings, from the AI
 * SDK's `embed` with the provider's embedding model. Both embeddings go through the run's
 * response cache (a reference shared by rows is embedded once) and their tokens and cost count
 * in the run's judge spend.
 */
export const similar = defineScorer<SimilarOptions>({
  name: 'similar',
  description: 'Passes when the cosine similarity of the output\'s and the expected output\'s embeddings reaches a threshold.',
  callsModel: true,
  options: {
    type: 'object',
    properties: {
      threshold: { type: 'number', minimum: -1, maximum: 1, description: 'Cosine similarity needed to pass (0.75).' },
      value: { type: 'string', description: 'Reference text; defaults to expected_output.' },
      model: { type: 'string', pattern: '^[^/]+/.+$', description: 'Embedding model, provider/model (openai/text-embedding-3-small).' },
    },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const embed = ctx.embed;
    if (embed === undefined) {
      throw new EvalBindingError('EVAL_NO_EMBEDDINGS', `eval "${ctx.evalName}": similar needs an embedding model, and nothing here can call one`, { location: { file: ctx.promptPath } });
    }
    const threshold = options.threshold ?? 0.75;
    const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
    return async (params) => {
      const reference = options.value ?? requireExpectedText(params.expectedOutput, 'similar');
      const [output, expected] = await Promise.all([embed(model, outputText(params.output)), embed(model, reference)]);
      const cosine = cosineSimilarity(output, expected);
      const passed = cosine >= threshold;
      return { score: cosine, passed, reason: `cosine ${Number(cosine.toFixed(4))} ${passed ? '>=' : '<'} threshold ${threshold} (${model})` };
    };
  },
});

export const embeddingScorers: BuiltinScorer[] = [similar];
