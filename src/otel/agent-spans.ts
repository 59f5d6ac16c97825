import { SpanKind, trace, type Attributes, type Context } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { AgentRowRecord } from '../agent/types.js';
import type { RowResult } from '../experiment/types.js';
import { chatRequestAttributes, openInferenceLlm, usageAttributes } from './gen-ai.js';
import { errorStatus } from './error-status.js';
import type { RowSpanContext } from './span-context.js';
import { emitToolSpans } from './tool-spans.js';

/**
 * A row a config agent ran: an `invoke_agent <name>` span, one `chat <model>` client span per
 * model call it made through `ctx.model`/`ctx.models` that went to the server now (a call the
 * cache answered made none), and its tool calls. The row stores each call's duration, not its
 * start, so the calls are laid end to end from the agent's start, in the order they ended.
 */
export function emitAgentSpans(row: RowResult, agent: AgentRowRecord, ctx: RowSpanContext, parent: Context, start: number, end: number): void {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    [ATTR_GEN_AI_AGENT_NAME]: agent.name,
    'openinference.span.kind': 'AGENT',
    'agentmark.agent.model_calls': agent.modelCalls,
    'agentmark.agent.steps': agent.steps,
    'agentmark.agent.tool_calls': agent.toolCalls,
    ...(agent.agentMs === undefined ? {} : { 'agentmark.agent.own_ms': agent.agentMs }),
    ...usageAttributes(row.usage),
    ...(row.costUsd === undefined ? {} : { 'agentmark.cost_usd': row.costUsd }),
  };
  if (row.error !== undefined) attributes[ATTR_ERROR_TYPE] = row.timedOut ? 'timeout' : (row.errorCode ?? 'error');
  const span = ctx.tracer.startSpan(`invoke_agent ${agent.name}`, { kind: SpanKind.INTERNAL, startTime: start, attributes }, parent);
  if (row.error !== undefined) span.setStatus(errorStatus(row.error, ctx.content));
  const inAgent = trace.setSpan(parent, span);
  let at = start;
  for (const call of agent.calls) {
    if (call.cached) continue;
    const callEnd = Math.min(end, at + call.latencyMs);
    const callAttributes: Attributes = {
      ...chatRequestAttributes(call.model, {}, ctx.serverOf),
      'openinference.span.kind': 'LLM',
      ...usageAttributes(call.usage),
      ...(ctx.content ? openInferenceLlm(call.model, call.usage) : {}),
      ...(call.costUsd === undefined ? {} : { 'agentmark.cost_usd': call.costUsd }),
      'agentmark.retries': Math.max(0, call.attempts - 1),
    };
    ctx.tracer.startSpan(`chat ${String(callAttributes['gen_ai.request.model'])}`, { kind: SpanKind.CLIENT, startTime: at, attributes: callAttributes }, inAgent).end(callEnd);
    at = callEnd;
  }
  emitToolSpans(row, ctx, inAgent, end);
  span.end(end);
}
