import { EvalBindingError } from '../../errors/index.js';
import { accuracyAnswerSpec, judgeAnswerSpec } from '../judge/answer-schema.js';
import { createJudge, DEFAULT_JUDGE_MODEL } from '../judge/create-judge.js';
import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';

export { DEFAULT_JUDGE_MODEL };
const ACCURACY_CRITERIA =
  'How accurately and completely the output answers the input, judged against the expected output when one is given.';

export interface LlmJudgeOptions {
  /** Judge model, `provider/model`. @default the run's judge model, else "openai/gpt-4o-mini" */
  model?: string;
  /** What the judge checks. @default the score schema's description */
  criteria?: string;
  /** Path (from the project root) of your own judge prompt, rendered with the same props. @default the shipped judges/llm-judge.prompt.mdx */
  prompt?: string;
  /** Numeric and categorical schemas: passed when the score (a category's value) >= threshold. @default no verdict, only a score */
  threshold?: number;
}

export interface AccuracyOptions {
  /** Judge model, `provider/model`. @default the run's judge model, else "openai/gpt-4o-mini" */
  model?: string;
  /** What "accurate" means here. @default the score schema's description, else a generic accuracy criterion */
  criteria?: string;
  /** Path (from the project root) of your own judge prompt. @default the shipped judges/accuracy.prompt.mdx */
  prompt?: string;
  /** Score (1..10) needed to pass. @default 7 */
  threshold?: number;
}

export const judgeOptionProperties = {
  model: { type: 'string', pattern: '^[^/]+/.+$', description: 'provider/model' },
  criteria: { type: 'string', minLength: 1 },
  prompt: { type: 'string', minLength: 1 },
};

export const llmJudge = defineScorer<LlmJudgeOptions>({
  name: 'llm_judge',
  callsModel: true,
  description: "Asks a model whether the output meets criteria; the answer's shape follows the score schema.",
  options: {
    type: 'object',
    properties: { ...judgeOptionProperties, threshold: { type: 'number' } },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const criteria = options.criteria ?? ctx.schema?.description;
    if (criteria === undefined) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": llm_judge has no criteria`, {
        location: { file: ctx.promptPath },
        hint: `set options.criteria, or a description on scores.${ctx.evalName} in agentmark.json`,
      });
    }
    return createJudge({ options, criteria, spec: judgeAnswerSpec(ctx.schema, options.threshold), shipped: 'llm-judge' }, ctx);
  },
});

export const accuracy = defineScorer<AccuracyOptions>({
  name: 'accuracy',
  callsModel: true,
  description: 'Asks a model to rate accuracy 1..10 against the input and expected output; passes at a threshold.',
  options: {
    type: 'object',
    properties: { ...judgeOptionProperties, threshold: { type: 'integer', minimum: 1, maximum: 10 } },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const criteria = options.criteria ?? ctx.schema?.description ?? ACCURACY_CRITERIA;
    return createJudge({ options, criteria, spec: accuracyAnswerSpec(options.threshold ?? 7), shipped: 'accuracy' }, ctx);
  },
});

export const judgeScorers: BuiltinScorer[] = [llmJudge, accuracy];
