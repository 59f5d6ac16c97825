import { EvalBindingError } from '../../errors/index.js';
import { outsideScope, projectScope } from '../../project/path-scope.js';
import type { LoadedPrompt } from '../../prompt/types.js';
import { expectedText, outputText } from '../builtins/text.js';
import type { EvalParams, EvalResult, Scorer, ScorerContext } from '../types.js';
import type { JudgeAnswerSpec } from './answer-schema.js';
import { askJudge } from './ask-judge.js';
import { loadJudgePrompt, renderJudge, shippedJudgePath, userJudgePath, type ShippedJudge } from './judge-prompt.js';

/** The judge model when neither the eval's options nor the run name one. */
export const DEFAULT_JUDGE_MODEL = 'openai/gpt-4o-mini';

export interface JudgeSetup {
  options: { model?: string; prompt?: string };
  criteria: string;
  spec: JudgeAnswerSpec;
  shipped: ShippedJudge;
  /** More props for the judge prompt from the row (a RAG judge's context); may throw to make the row's eval an error. */
  props?: (params: EvalParams) => Record<string, unknown>;
  /** Turns the checked answer into the result when that takes more than the spec (answer_relevance embeds). */
  finish?: (answer: Record<string, unknown>, params: EvalParams) => Promise<EvalResult>;
}

/** Binds a judge: checks it can run, loads its prompt once, returns the per-row scorer. */
export async function createJudge(setup: JudgeSetup, ctx: ScorerContext): Promise<Scorer> {
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
      ...setup.props?.(params),
    });
    // A user's own prompt may name its model; the shipped prompts' model_name is only a placeholder.
    const promptModel = setup.options.prompt ? rendered.modelName : undefined;
    const modelName = setup.options.model ?? promptModel ?? ctx.judgeModel ?? DEFAULT_JUDGE_MODEL;
    const answer = await askJudge({ judge, modelName, messages: rendered.messages, schema: setup.spec.schema });
    return setup.finish ? setup.finish(answer, params) : setup.spec.toResult(answer);
  };
}
