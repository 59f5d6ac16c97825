import { EvalBindingError } from '../../errors/index.js';
import type { JSONSchema7 } from '../../prompt/json-schema.js';
import type { JudgeAnswerSpec } from '../judge/answer-schema.js';
import { createJudge } from '../judge/create-judge.js';
import type { BuiltinScorer, EvalResult } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { judgeOptionProperties } from './llm-judge.js';
import { expectedText } from './text.js';

const reasoning = { type: 'string', description: 'Step-by-step reasoning, written before the verdict.' };
const answerSchema = (field: string, schema: JSONSchema7): JSONSchema7 => ({
  type: 'object',
  properties: { reasoning, [field]: schema },
  required: ['reasoning', field],
  additionalProperties: false,
});
const reasonOf = (answer: Record<string, unknown>): string => (typeof answer['reasoning'] === 'string' ? answer['reasoning'] : '');
const modelOptions = { model: judgeOptionProperties.model, prompt: judgeOptionProperties.prompt };

/** OpenAI Evals' fact.yaml choices, in its words. */
export const FACTUALITY_CHOICES = {
  A: 'the submission is a subset of the expert answer and fully consistent with it',
  B: 'the submission is a superset of the expert answer and fully consistent with it',
  C: 'the submission contains all the same details as the expert answer',
  D: 'the submission disagrees with the expert answer',
  E: 'the answers differ, but not in a way that matters for factuality',
} as const;
type Choice = keyof typeof FACTUALITY_CHOICES;

export interface FactualityOptions {
  model?: string;
  prompt?: string;
  /** Score of each choice; a choice scoring 0 fails. @default A, B, C, E: 1; D: 0 (promptfoo's defaults) */
  scores?: Partial<Record<Choice, number>>;
}

/**
 * OpenAI Evals' `fact` (promptfoo's `factuality`): the judge compares the output with the expert
 * answer (the row's expected_output) and picks one of five choices, A–E, given as the label.
 */
export const factuality = defineScorer<FactualityOptions>({
  name: 'factuality',
  callsModel: true,
  description: "Asks a judge which of OpenAI Evals' five relations (A-E) the output has to the expected output; fails on D (disagreement).",
  options: {
    type: 'object',
    properties: {
      ...modelOptions,
      scores: { type: 'object', properties: Object.fromEntries(Object.keys(FACTUALITY_CHOICES).map((c) => [c, { type: 'number', minimum: 0, maximum: 1 }])), additionalProperties: false },
    },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const scores: Record<Choice, number> = { A: 1, B: 1, C: 1, D: 0, E: 1, ...options.scores };
    const spec: JudgeAnswerSpec = {
      schema: answerSchema('choice', { type: 'string', enum: Object.keys(FACTUALITY_CHOICES) }),
      instructions: 'Then give "choice", the letter of the option that applies: A, B, C, D or E.',
      toResult: (answer) => {
        const choice = answer['choice'] as Choice;
        const score = scores[choice];
        return { label: choice, score, passed: score > 0, reason: `(${choice}) ${FACTUALITY_CHOICES[choice]}: ${reasonOf(answer)}` };
      },
    };
    return createJudge({ options, criteria: '', spec, shipped: 'factuality', props: (params) => ({ expectedOutput: requireReference(params.expectedOutput, 'factuality') }) }, ctx);
  },
});

export interface ClosedQaOptions {
  model?: string;
  prompt?: string;
  /** The criterion the answer must meet. @default the row's expected_output, else the score schema's description */
  criteria?: string;
}

/** OpenAI Evals' `closedqa` (promptfoo's `model-graded-closedqa`): does the output meet the criterion, Y or N. */
export const closedQa = defineScorer<ClosedQaOptions>({
  name: 'closed_qa',
  callsModel: true,
  description: "Asks a judge whether the output meets a criterion (OpenAI Evals' closedqa: Y or N).",
  options: { type: 'object', properties: { ...modelOptions, criteria: judgeOptionProperties.criteria }, additionalProperties: false },
  create: (options, ctx) => {
    const spec: JudgeAnswerSpec = {
      schema: answerSchema('answer', { type: 'string', enum: ['Y', 'N'] }),
      instructions: 'Then give "answer": "Y" when the submission meets the criterion, "N" when it does not.',
      toResult: (answer): EvalResult => {
        const passed = answer['answer'] === 'Y';
        return { passed, score: passed ? 1 : 0, reason: `${passed ? 'Y' : 'N'}: ${reasonOf(answer)}` };
      },
    };
    return createJudge(
      {
        options,
        criteria: '',
        spec,
        shipped: 'closed-qa',
        props: (params) => {
          const criteria = options.criteria ?? expectedText(params.expectedOutput) ?? ctx.schema?.description;
          if (criteria === undefined) throw new Error('closed_qa has no criterion: set options.criteria, give the row an expected_output, or describe the score schema');
          return { criteria };
        },
      },
      ctx,
    );
  },
});

export interface GEvalOptions {
  model?: string;
  prompt?: string;
  /** What the rubric scores. @default the score schema's description */
  criteria?: string;
  /** The evaluation steps the judge follows in order. @default the judge writes them from the criteria */
  steps?: string[];
  /** Normalised score (0..1) needed to pass. @default 0.7 (promptfoo's g-eval) */
  threshold?: number;
}

/** G-Eval (promptfoo's `g-eval`): a rubric scored 0–10 by following evaluation steps; the score is that over 10. */
export const gEval = defineScorer<GEvalOptions>({
  name: 'g_eval',
  callsModel: true,
  description: 'Asks a judge to score a rubric 0-10 by following evaluation steps (G-Eval); passes at a threshold of the score over 10.',
  options: {
    type: 'object',
    properties: {
      ...modelOptions,
      criteria: judgeOptionProperties.criteria,
      steps: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
      threshold: { type: 'number', minimum: 0, maximum: 1 },
    },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const criteria = options.criteria ?? ctx.schema?.description;
    if (criteria === undefined) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": g_eval has no criteria`, {
        location: { file: ctx.promptPath },
        hint: `set options.criteria, or a description on scores.${ctx.evalName} in agentmark.json`,
      });
    }
    const threshold = options.threshold ?? 0.7;
    const steps = (options.steps ?? []).map((step, i) => `${i + 1}. ${step}`).join('\n');
    const spec: JudgeAnswerSpec = {
      schema: answerSchema('score', { type: 'integer', minimum: 0, maximum: 10 }),
      instructions: 'Then give "score", an integer from 0 (does not meet the criteria at all) to 10 (meets them fully).',
      toResult: (answer) => {
        const score = (answer['score'] as number) / 10;
        const passed = score >= threshold;
        return { score, passed, reason: `${answer['score'] as number}/10 ${passed ? '>=' : '<'} threshold ${threshold}: ${reasonOf(answer)}` };
      },
    };
    return createJudge({ options, criteria, spec, shipped: 'g-eval', props: () => ({ steps, hasSteps: steps !== '' }) }, ctx);
  },
});

/** The expected output a judge compares with; a row without one is that row's eval error. */
export function requireReference(expected: unknown, scorer: string): string {
  const text = expectedText(expected);
  if (text === undefined) throw new Error(`${scorer} needs the row's expected_output (the reference answer)`);
  return text;
}

export const referenceJudges: BuiltinScorer[] = [factuality, closedQa, gEval];
