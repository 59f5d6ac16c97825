import { EvalBindingError } from '../../errors/index.js';
import { outsideScope, projectScope } from '../../project/path-scope.js';
import type { LoadedPrompt } from '../../prompt/types.js';
import { accuracyAnswerSpec, judgeAnswerSpec, type JudgeAnswerSpec } from '../judge/answer-schema.js';
import { askJudge } from '../judge/ask-judge.js';
import { loadJudgePrompt, renderJudge, shippedJudgePath, userJudgePath } from '../judge/judge-prompt.js';
import type { BuiltinScorer, Scorer, ScorerContext } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { expectedText, outputText } from './text.js';

/** The judge model when neither the eval's options nor the run name one. */
export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini';
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

const judgeOptionProperties = {
  model: { type: 'string', pattern: '^[^/]+/.+$', description: 'provider/model' },
  criteria: { type: 'string', minLength: 1 },
  prompt: { type: 'string', minLength: 1 },
};

interface JudgeSetup {
  options: { model?: string; criteria?: string; prompt?: string };
  criteria: string;
  spec: JudgeAnswerSpec;
  shipped: 'llm-judge' | 'accuracy';
}

/** Binds a judge: checks it can run, loads its prompt once, returns the per-row scorer. */
async function createJudge(setup: JudgeSetup, ctx: ScorerContext): Promise<Scorer> {
  const location = { file: ctx.promptPath };
  const judge = ctx.judge;
  if (judge === undefined) {
    throw new EvalBindingError('EVAL_NO_JUDGE', `eval "${ctx.evalName}" needs an LLM judge, but none is available here`, {
      location,
      hint: 'run it through run-experiment, which wires the judge model',
    });
  }
  const own = setup.options.prompt;
  const path = own ? userJudgePath(own, ctx.projectRoot) : shippedJudgePath(setup.shipped);
  const scope = own ? (ctx.pathScope ?? projectScope({ root: ctx.projectRoot })) : undefined;
  const outside = own && scope ? outsideScope(scope, path, own) : undefined;
  if (outside) {
    throw new EvalBindingError('EVAL_JUDGE_PROMPT_OUTSIDE_PROJECT', `eval "${ctx.evalName}": judge prompt ${outside.message}`, { location, hint: outside.hint });
  }
  let prompt: LoadedPrompt;
  try {
    prompt = await loadJudgePrompt(path, scope);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EvalBindingError('EVAL_JUDGE_PROMPT', `eval "${ctx.evalName}": cannot load judge prompt ${path}: ${message}`, {
      location,
      cause: error,
    });
  }
  return async (params) => {
    const expected = expectedText(params.expectedOutput);
    const hasExpectedOutput = expected !== undefined;
    const rendered = renderJudge(prompt, {
      input: JSON.stringify(params.input, null, 2),
      item: params.input,
      output: outputText(params.output),
      expectedOutput: expected ?? '',
      hasExpectedOutput,
      criteria: setup.criteria,
      instructions: setup.spec.instructions,
    });
    // A user's own prompt may name its model; the shipped prompts' model_name is only a placeholder.
    const promptModel = setup.options.prompt ? rendered.modelName : undefined;
    const modelName = setup.options.model ?? promptModel ?? ctx.judgeModel ?? DEFAULT_JUDGE_MODEL;
    const answer = await askJudge({ judge, modelName, messages: rendered.messages, schema: setup.spec.schema });
    return setup.spec.toResult(answer);
  };
}

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
