import { SpanKind, trace, type Attributes, type Context } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
} from '@opentelemetry/semantic-conventions/incubating';
import { rowIdentity, rowLabels } from '../dataset/index.js';
import type { RowResult } from '../experiment/types.js';
import { emitAgentSpans } from './agent-spans.js';
import { evaluationEvent, EVALUATION_EVENT } from './evaluation-event.js';
import { chatRequestAttributes, finishReasons, openInferenceLlm, usageAttributes, type ServerOf } from './gen-ai.js';
import { inputMessageAttributes, outputMessageAttributes } from './messages.js';
import { json } from './json-attribute.js';
import { emitToolSpans } from './tool-spans.js';
import { conversationMs, emitTurnSpans } from './turn-spans.js';
import { errorStatus } from './error-status.js';
import type { ScoredEval } from '../scoring/types.js';
import type { RowSpanContext } from './span-context.js';

export type { RowSpanContext };

/** Row errors that were never a call to the model. */
const NO_CALL = new Set(['MODEL_CACHE_MISS', 'MODEL_NO_API_KEY']);

/**
 * One row × repeat as spans: the row span (`agentmark.row`), its model call (`chat <model>`,
 * live calls only), its tool calls (`execute_tool <name>`), its judge calls, and one
 * `gen_ai.evaluation.result` event per eval. Everything comes from the stored row, so a live
 * export and `runs export` of the same run give the same tree.
 */
export function emitRowSpans(row: RowResult, ctx: RowSpanContext): void {
  const end = row.endedAt === undefined ? ctx.fallbackEnd : Date.parse(row.endedAt);
  const noLiveCall = row.cached || row.pregenerated === true || row.batch === true;
  // A conversation's turns (the simulated user's too) lie end to end inside the row.
  const callMs = row.conversation !== undefined ? conversationMs(row) : noLiveCall ? 0 : (row.latencyMs ?? 0);
  const judgeMs = row.judge?.latencyMs ?? 0;
  const start = end - callMs - judgeMs;
  const labels = rowLabels(row.metadata);
  const identity = rowIdentity(row);
  // Built by assignment in the same key order: a row's spans are the export's hot path.
  const attributes = copyOf(ctx.shared);
  attributes['openinference.span.kind'] = 'CHAIN';
  attributes['agentmark.row.index'] = row.index;
  attributes['agentmark.row.line'] = row.line;
  attributes['agentmark.row.repeat'] = row.repeat;
  attributes['agentmark.row.id'] = identity;
  if (labels.name !== undefined) attributes['agentmark.row.name'] = labels.name;
  if (labels.tags.length > 0) attributes['agentmark.row.tags'] = labels.tags;
  attributes['agentmark.cached'] = row.cached;
  if (row.pregenerated) attributes['agentmark.pregenerated'] = true;
  if (row.batch) attributes['agentmark.batch'] = true;
  if (row.warmup) attributes['agentmark.warmup'] = true;
  if (row.costUsd !== undefined) attributes['agentmark.cost_usd'] = row.costUsd;
  attributes['langfuse.experiment.item.id'] = identity;
  addItemMetadata(attributes, row.metadata, ctx.content);
  if (ctx.content) Object.assign(attributes, contentAttributes(row));
  if (row.error !== undefined) attributes[ATTR_ERROR_TYPE] = row.timedOut ? 'timeout' : (row.errorCode ?? 'error');
  const span = ctx.tracer.startSpan('agentmark.row', { kind: SpanKind.INTERNAL, startTime: start, attributes, links: ctx.links }, ctx.parent);
  span.setAttribute('langfuse.experiment.item.root_observation_id', span.spanContext().spanId);
  if (row.error !== undefined) span.setStatus(errorStatus(row.error, ctx.content));
  const inRow = trace.setSpan(ctx.parent, span);

  const madeCall = !noLiveCall && (row.errorCode === undefined ? row.error === undefined : row.errorCode.startsWith('MODEL_') && !NO_CALL.has(row.errorCode));
  if (row.conversation) emitTurnSpans(row, ctx, inRow, start);
  else if (row.agent) emitAgentSpans(row, row.agent, ctx, inRow, start, start + callMs);
  else if (madeCall) emitCall(row, ctx, inRow, start, start + callMs);
  if (row.judge && row.judge.calls > 0) emitJudge(row, ctx, inRow, start + callMs, end);
  // Each result evaluates the row's answer: the event names that response (GenAI conventions).
  const responseId = row.response?.id;
  for (const name in row.evals) {
    const event = evaluationEvent(name, row.evals[name] as ScoredEval, ctx.content);
    if (responseId !== undefined) event[ATTR_GEN_AI_RESPONSE_ID] = responseId;
    span.addEvent(EVALUATION_EVENT, event, end);
  }
  span.end(end);
}

function emitCall(row: RowResult, ctx: RowSpanContext, parent: Context, start: number, end: number): void {
  const attributes = copyOf(ctx.chatRequest ?? chatRequestAttributes(ctx.model, ctx.settings, ctx.serverOf));
  attributes['openinference.span.kind'] = 'LLM';
  if (row.usage) Object.assign(attributes, usageAttributes(row.usage));
  if (ctx.content) Object.assign(attributes, openInferenceLlm(ctx.model, row.usage, row.response?.model));
  if (row.finishReason) Object.assign(attributes, finishReasons(row.finishReason));
  if (row.response?.id !== undefined) attributes[ATTR_GEN_AI_RESPONSE_ID] = row.response.id;
  if (row.response?.model !== undefined) attributes[ATTR_GEN_AI_RESPONSE_MODEL] = row.response.model;
  if (row.costUsd !== undefined) attributes['agentmark.cost_usd'] = row.costUsd;
  attributes['agentmark.retries'] = row.retries;
  if (row.error !== undefined) attributes[ATTR_ERROR_TYPE] = row.timedOut ? 'timeout' : (row.errorCode ?? 'error');
  if (ctx.content) {
    const messages = ctx.renderMessages?.(row.input);
    if (messages) Object.assign(attributes, inputMessageAttributes(messages));
    if (row.output !== undefined) Object.assign(attributes, outputMessageAttributes(row.output, row.finishReason));
  }
  const name = `chat ${String(attributes['gen_ai.request.model'])}`;
  const span = ctx.tracer.startSpan(name, { kind: SpanKind.CLIENT, startTime: start, attributes }, parent);
  // Each retry is an attempt that failed before the one that answered; their times are not kept.
  for (let attempt = 1; attempt <= row.retries; attempt += 1) span.addEvent('agentmark.retry', { 'agentmark.retry.attempt': attempt }, start);
  if (row.error !== undefined) span.setStatus(errorStatus(row.error, ctx.content));
  emitToolSpans(row, ctx, trace.setSpan(parent, span), end);
  span.end(end);
}

/** The row's LLM-judge calls, as one client span marked `agentmark.judge` (the row keeps their sum). */
function emitJudge(row: RowResult, ctx: RowSpanContext, parent: Context, start: number, end: number): void {
  const judge = row.judge;
  if (!judge) return;
  const attributes: Attributes = {
    ...(ctx.judgeModel === undefined ? {} : chatRequestAttributes(ctx.judgeModel, {}, ctx.serverOf)),
    'openinference.span.kind': 'EVALUATOR',
    [ATTR_GEN_AI_OPERATION_NAME]: 'chat',
    'agentmark.judge': true,
    'agentmark.judge.calls': judge.calls,
    'agentmark.judge.cached': judge.cached,
    'agentmark.cached': judge.cached === judge.calls,
    ...usageAttributes(judge.calls > judge.cached ? judge.usage : undefined),
    ...(ctx.judgeModel === undefined || !ctx.content ? {} : openInferenceLlm(ctx.judgeModel, judge.calls > judge.cached ? judge.usage : undefined)),
    ...(judge.costUsd === undefined ? {} : { 'agentmark.cost_usd': judge.costUsd }),
  };
  const name = ctx.judgeModel === undefined ? 'chat' : `chat ${String(attributes['gen_ai.request.model'])}`;
  ctx.tracer.startSpan(name, { kind: SpanKind.CLIENT, startTime: start, attributes }, parent).end(end);
}

/**
 * A fresh copy to add a span's own attributes to. A key-by-key copy: `{ ...shared }` followed by
 * assignments measured ~50× slower in Node 20 (the clone's map is not extended in place).
 */
function copyOf(shared: Attributes): Attributes {
  const out: Attributes = {};
  for (const key in shared) out[key] = shared[key];
  return out;
}

/**
 * The row's metadata for Langfuse. `name` and `tags` are the labels rows are selected by (like an
 * eval's name, not content) and always go; any other key is the dataset's own text, content.
 */
function addItemMetadata(out: Attributes, metadata: Record<string, unknown>, content: boolean): void {
  for (const key in metadata) {
    if (!content && key !== 'name' && key !== 'tags') continue;
    const value = metadata[key];
    out[`langfuse.experiment.item.metadata.${key}`] = typeof value === 'string' ? value : json(value);
  }
}

/** Dataset content: only with `--otel-content` (inputs and outputs may hold personal data). */
function contentAttributes(row: RowResult): Attributes {
  return {
    'langfuse.observation.input': json(row.input),
    ...(row.output === undefined ? {} : { 'langfuse.observation.output': typeof row.output === 'string' ? row.output : json(row.output) }),
    ...(row.expectedOutput === undefined ? {} : { 'langfuse.experiment.item.expected_output': json(row.expectedOutput) }),
    'agentmark.row.input': json(row.input),
    // OpenInference (Phoenix): the row's input and output on its CHAIN span.
    'input.value': json(row.input),
    'input.mime_type': 'application/json',
    ...(row.output === undefined ? {} : { 'output.value': typeof row.output === 'string' ? row.output : json(row.output), 'output.mime_type': typeof row.output === 'string' ? 'text/plain' : 'application/json' }),
  };
}
