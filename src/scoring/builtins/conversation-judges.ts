import { EvalBindingError } from '../../errors/index.js';
import type { LoadedPrompt } from '../../prompt/types.js';
import { judgeAnswerSpec } from '../judge/answer-schema.js';
import { askJudge } from '../judge/ask-judge.js';
import { loadJudgePrompt, shippedJudgePath, type ShippedJudge } from '../judge/judge-prompt.js';
import type { BuiltinScorer, EvalParams } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { DEFAULT_JUDGE_MODEL } from './llm-judge.js';
import { expectedText, outputText } from './text.js';

export interface ConversationJudgeOptions {
  /** Judge model, `provider/model`. @default the run's judge model, else "openai/gpt-4o-mini" */
  model?: string;
  /** What the judge checks. @default the score schema's description, else the judge's own criterion */
  criteria?: string;
  /** Numeric schemas only: passed when score >= threshold. @default no verdict, only a score */
  threshold?: number;
}

interface ConversationJudge {
  name: string;
  prompt: ShippedJudge;
  description: string;
  criteria: string;
}

const JUDGES: ConversationJudge[] = [
  {
    name: 'goal_completed',
    prompt: 'goal-completed',
    description: "Asks a model whether the conversation reached the scenario's goal (and the expected outcome, when given).",
    criteria: "By the end of the conversation the user's goal in the scenario was reached, and the expected outcome, when one is given, happened.",
  },
  {
    name: 'role_adherence',
    prompt: 'role-adherence',
    description: 'Asks a model whether every assistant turn kept to the role its system prompt gives it.',
    criteria: 'Every assistant turn stays in the role and within the limits the system prompt sets, in content and in tone.',
  },
  {
    name: 'knowledge_retention',
    prompt: 'knowledge-retention',
    description: 'Asks a model whether the assistant kept what the user said: nothing asked again or contradicted.',
    criteria: 'The assistant never asks again for something the user already said, and never contradicts it.',
  },
  {
    name: 'turn_relevancy',
    prompt: 'turn-relevancy',
    description: 'Asks a model whether an assistant turn answers the conversation before it (a turn eval).',
    criteria: "The assistant's reply is relevant to the conversation so far and answers the user's last message.",
  },
];

/** The conversation as the judge reads it: one `role: content` paragraph per turn. */
function transcriptText(params: EvalParams): string {
  const turns = params.turns ?? params.messages.map((message, index) => ({ index, role: message.role, content: typeof message.content === 'string' ? message.content : '' }));
  return turns.map((turn) => `${turn.role}: ${turn.content}`).join('\n\n');
}

function create(judge: ConversationJudge): BuiltinScorer {
  return defineScorer<ConversationJudgeOptions>({
    name: judge.name,
    callsModel: true,
    description: judge.description,
    options: {
      type: 'object',
      properties: {
        model: { type: 'string', pattern: '^[^/]+/.+$', description: 'provider/model' },
        criteria: { type: 'string', minLength: 1 },
        threshold: { type: 'number' },
      },
      additionalProperties: false,
    },
    create: async (options, ctx) => {
      const ask = ctx.judge;
      if (ask === undefined) {
        throw new EvalBindingError('EVAL_NO_JUDGE', `eval "${ctx.evalName}" needs an LLM judge, but none is available here`, {
          location: { file: ctx.promptPath },
          hint: 'run it through run-experiment, which wires the judge model',
        });
      }
      const prompt: LoadedPrompt = await loadJudgePrompt(shippedJudgePath(judge.prompt));
      const spec = judgeAnswerSpec(ctx.schema, options.threshold);
      const criteria = options.criteria ?? ctx.schema?.description ?? judge.criteria;
      return async (params) => {
        if (params.turns === undefined) return { skipped: true, reason: 'not a conversation' };
        const expected = expectedText(params.expectedOutput);
        const scenario = params.metadata['scenario'];
        const rendered = prompt.render({
          transcript: transcriptText(params),
          output: outputText(params.output),
          role: params.conversation?.system ?? '',
          scenario: scenario === undefined ? '' : JSON.stringify(scenario, null, 2),
          hasScenario: scenario !== undefined,
          expectedOutput: expected ?? '',
          hasExpectedOutput: expected !== undefined,
          criteria,
          instructions: spec.instructions,
        });
        const modelName = options.model ?? ctx.judgeModel ?? DEFAULT_JUDGE_MODEL;
        return spec.toResult(await askJudge({ judge: ask, modelName, messages: rendered.messages ?? [], schema: spec.schema }));
      };
    },
  });
}

export const conversationJudgeScorers: BuiltinScorer[] = JUDGES.map(create);
