import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import { ATTR_GEN_AI_OPERATION_NAME } from '@opentelemetry/semantic-conventions/incubating';
import type { RowResult } from '../experiment/types.js';
import { usageAttributes } from './gen-ai.js';
import type { RowSpanContext } from './span-context.js';

/** The wall time of a conversation's calls made now: its turns' latencies, cached ones left out. */
export function conversationMs(row: RowResult): number {
  return (row.conversation?.turns ?? []).reduce((sum, turn) => sum + (turn.cached || turn.given ? 0 : (turn.latencyMs ?? 0)), 0);
}

/**
 * A conversation row's turns, one span each under the row, in order: `turn <i> <role>`, a client
 * span for a generated turn (the prompt's, or the simulated user's with `agentmark.turn.simulated`)
 * lasting its call, an instant internal span for a turn the dataset gave. Each carries its
 * tokens, whether the cache answered it, and (with content) its text.
 */
export function emitTurnSpans(row: RowResult, ctx: RowSpanContext, parent: Context, start: number): void {
  let at = start;
  for (const turn of row.conversation?.turns ?? []) {
    const ms = turn.cached || turn.given ? 0 : (turn.latencyMs ?? 0);
    const attributes: Attributes = {
      'agentmark.turn.index': turn.index,
      'agentmark.turn.role': turn.role,
      ...(turn.simulated ? { 'agentmark.turn.simulated': true } : {}),
      ...(turn.given ? { 'agentmark.turn.given': true } : { [ATTR_GEN_AI_OPERATION_NAME]: 'chat', 'agentmark.cached': turn.cached === true, ...usageAttributes(turn.usage) }),
      ...(ctx.content ? { 'agentmark.turn.content': turn.content } : {}),
    };
    for (const [name, result] of Object.entries(turn.evals ?? {})) {
      if (result.passed !== undefined) attributes[`agentmark.turn.eval.${name}.passed`] = result.passed;
      if (result.score !== undefined) attributes[`agentmark.turn.eval.${name}.score`] = result.score;
    }
    const kind = turn.given ? SpanKind.INTERNAL : SpanKind.CLIENT;
    ctx.tracer.startSpan(`turn ${turn.index} ${turn.role}`, { kind, startTime: at, attributes }, parent).end(at + ms);
    at += ms;
  }
}
