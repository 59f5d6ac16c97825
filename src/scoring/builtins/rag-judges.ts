import type { JSONSchema7 } from '../../prompt/json-schema.js';
import type { JudgeAnswerSpec } from '../judge/answer-schema.js';
import { createJudge } from '../judge/create-judge.js';
import type { BuiltinScorer, EvalParams, EvalResult } from '../types.js';
import { defineScorer } from './define-scorer.js';
import { cosineSimilarity, DEFAULT_EMBEDDING_MODEL } from './embedding-similarity.js';
import { judgeOptionProperties } from './llm-judge.js';
import { requireReference } from './reference-judges.js';

export interface RagJudgeOptions {
  model?: string;
  prompt?: string;
  /** The row field holding the retrieved context (its input, else its other keys). @default "context" */
  context_field?: string;
  /** Score (0..1) needed to pass. @default 0.7 */
  threshold?: number;
}

const ragOptions = {
  type: 'object',
  properties: {
    model: judgeOptionProperties.model,
    prompt: judgeOptionProperties.prompt,
    context_field: { type: 'string', minLength: 1, description: 'Row field holding the context (context).' },
    threshold: { type: 'number', minimum: 0, maximum: 1, description: 'Score needed to pass (0.7).' },
  },
  additionalProperties: false,
} as const;

/**
 * The row's context: `input[field]`, else the row's own key `field`; a list is joined by blank
 * lines, an object shown as JSON. A row without it is that row's eval error, naming the field.
 */
export function rowContext(params: Pick<EvalParams, 'input' | 'metadata'>, field: string, scorer: string): string {
  const value = Object.hasOwn(params.input, field) ? params.input[field] : Object.hasOwn(params.metadata, field) ? params.metadata[field] : undefined;
  if (value === undefined || value === null) throw new Error(`${scorer} reads the context from the row's "${field}" (in its input or beside it), which this row lacks (set options.context_field to another field)`);
  if (Array.isArray(value)) return value.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('\n\n');
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * A judge that judges a list of items one by one (claims, statements, sentences): the score is
 * the share that hold, computed here from the structured answer rather than trusted from the model.
 */
function itemsSpec(field: string, item: string, flag: string, instructions: string, what: string, threshold: number): JudgeAnswerSpec {
  const schema: JSONSchema7 = {
    type: 'object',
    properties: {
      reasoning: { type: 'string' },
      [field]: { type: 'array', items: { type: 'object', properties: { [item]: { type: 'string' }, [flag]: { type: 'boolean' } }, required: [item, flag], additionalProperties: false } },
    },
    required: ['reasoning', field],
    additionalProperties: false,
  };
  return {
    schema,
    instructions,
    toResult: (answer): EvalResult => {
      const items = answer[field] as Array<Record<string, unknown>>;
      const held = items.filter((entry) => entry[flag] === true);
      // Nothing to check (an empty answer, an empty context): nothing contradicts it.
      const score = items.length === 0 ? 1 : held.length / items.length;
      const passed = score >= threshold;
      const missed = items.filter((entry) => entry[flag] !== true).map((entry) => JSON.stringify(entry[item]));
      const tail = missed.length === 0 ? '' : `; not ${flag}: ${missed.join(', ')}`;
      return { score, passed, reason: `${held.length} of ${items.length} ${what} ${flag} (${Number(score.toFixed(3))} ${passed ? '>=' : '<'} threshold ${threshold})${tail}` };
    },
  };
}

function ragJudge(name: string, shipped: 'context-faithfulness' | 'context-recall' | 'context-relevance', description: string, spec: (threshold: number) => JudgeAnswerSpec, needsReference: boolean): BuiltinScorer {
  return defineScorer<RagJudgeOptions>({
    name,
    callsModel: true,
    description,
    options: ragOptions,
    create: (options, ctx) => {
      const field = options.context_field ?? 'context';
      return createJudge(
        {
          options,
          criteria: '',
          spec: spec(options.threshold ?? 0.7),
          shipped,
          props: (params) => ({ context: rowContext(params, field, name), ...(needsReference ? { expectedOutput: requireReference(params.expectedOutput, name) } : {}) }),
        },
        ctx,
      );
    },
  });
}

/** promptfoo's `context-faithfulness` (RAGAS faithfulness): the share of the output's claims the context supports. */
export const contextFaithfulness = ragJudge(
  'context_faithfulness',
  'context-faithfulness',
  "Asks a judge which of the output's claims the row's context supports; scores the share supported.",
  (threshold) => itemsSpec('claims', 'claim', 'supported', 'Then give "claims": every claim of the answer with "supported" true or false.', 'claims', threshold),
  false,
);

/** promptfoo's `context-recall` (RAGAS context recall): the share of the expected output's statements the context covers. */
export const contextRecall = ragJudge(
  'context_recall',
  'context-recall',
  "Asks a judge which statements of the expected output the row's context backs; scores the share attributed.",
  (threshold) => itemsSpec('statements', 'statement', 'attributed', 'Then give "statements": every statement of the reference answer with "attributed" true or false.', 'statements', threshold),
  true,
);

/** promptfoo's `context-relevance`: the share of the context's sentences needed to answer the question. */
export const contextRelevance = ragJudge(
  'context_relevance',
  'context-relevance',
  "Asks a judge which sentences of the row's context the question needs; scores the share relevant.",
  (threshold) => itemsSpec('sentences', 'sentence', 'relevant', 'Then give "sentences": every sentence of the context with "relevant" true or false.', 'sentences', threshold),
  false,
);

export interface AnswerRelevanceOptions {
  model?: string;
  prompt?: string;
  /** The embedding model the questions are compared with. @default openai/text-embedding-3-small */
  embeddingModel?: string;
  /** The row input field holding the question. @default the whole input, as JSON, when it has no "question", "query" or "prompt" */
  question_field?: string;
  /** Mean cosine needed to pass. @default 0.7 */
  threshold?: number;
}

const QUESTION_COUNT = 3;

/** The question a row asks: `input[field]`, else its `question`, `query` or `prompt`, else the whole input. */
function rowQuestion(input: Record<string, unknown>, field: string | undefined): string {
  const key = field ?? ['question', 'query', 'prompt'].find((name) => typeof input[name] === 'string');
  const value = key === undefined ? undefined : input[key];
  if (field !== undefined && value === undefined) throw new Error(`answer_relevance reads the question from input.${field}, which this row lacks`);
  return typeof value === 'string' ? value : JSON.stringify(value ?? input);
}

/**
 * promptfoo's `answer-relevance` (RAGAS answer relevancy): the judge writes the questions the
 * output answers; the score is the mean cosine of their embeddings with the row's question's.
 * An output that answers something else yields questions far from the one asked.
 */
export const answerRelevance = defineScorer<AnswerRelevanceOptions>({
  name: 'answer_relevance',
  callsModel: true,
  description: "Asks a judge for the questions the output answers and scores the mean cosine of their embeddings with the row's question.",
  options: {
    type: 'object',
    properties: {
      model: judgeOptionProperties.model,
      prompt: judgeOptionProperties.prompt,
      embeddingModel: { type: 'string', pattern: '^[^/]+/.+$' },
      question_field: { type: 'string', minLength: 1 },
      threshold: { type: 'number', minimum: -1, maximum: 1 },
    },
    additionalProperties: false,
  },
  create: (options, ctx) => {
    const embed = ctx.embed;
    const threshold = options.threshold ?? 0.7;
    const embeddingModel = options.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
    const spec: JudgeAnswerSpec = {
      schema: {
        type: 'object',
        properties: { reasoning: { type: 'string' }, questions: { type: 'array', items: { type: 'string' }, minItems: QUESTION_COUNT, maxItems: QUESTION_COUNT } },
        required: ['reasoning', 'questions'],
        additionalProperties: false,
      },
      instructions: `Then give "questions": exactly ${QUESTION_COUNT} questions.`,
      toResult: () => ({}),
    };
    return createJudge(
      {
        options,
        criteria: '',
        spec,
        shipped: 'answer-relevance',
        finish: async (answer, params) => {
          if (embed === undefined) throw new Error('answer_relevance needs an embedding model, and nothing here can call one');
          const questions = answer['questions'] as string[];
          const asked = await embed(embeddingModel, rowQuestion(params.input, options.question_field));
          const cosines = await Promise.all(questions.map(async (question) => cosineSimilarity(asked, await embed(embeddingModel, question))));
          const score = cosines.reduce((sum, c) => sum + c, 0) / cosines.length;
          const passed = score >= threshold;
          return { score, passed, reason: `mean cosine ${Number(score.toFixed(4))} ${passed ? '>=' : '<'} threshold ${threshold} of the questions the output answers: ${questions.map((q) => JSON.stringify(q)).join(', ')}` };
        },
      },
      ctx,
    );
  },
});

export const ragJudges: BuiltinScorer[] = [answerRelevance, contextFaithfulness, contextRecall, contextRelevance];
