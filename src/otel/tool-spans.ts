import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '@opentelemetry/semantic-conventions/incubating';
import type { RowResult } from '../experiment/types.js';
import { errorStatus } from './error-status.js';
import { json } from './json-attribute.js';
import type { RowSpanContext } from './span-context.js';

/** A row's tool calls as `execute_tool` spans under `parent`, at `at` (their exact times are not kept). */
export function emitToolSpans(row: RowResult, ctx: RowSpanContext, parent: Context, at: number): void {
  for (const call of row.toolCalls) {
    const tool: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: call.name,
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      'openinference.span.kind': 'TOOL',
      ...(call.error === undefined ? {} : { [ATTR_ERROR_TYPE]: 'tool_error' }),
      ...(ctx.content ? { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: json(call.args), ...(call.result === undefined ? {} : { [ATTR_GEN_AI_TOOL_CALL_RESULT]: json(call.result) }) } : {}),
    };
    // The AI SDK runs a tool between two steps of the call; when exactly is not kept.
    const span = ctx.tracer.startSpan(`execute_tool ${call.name}`, { kind: SpanKind.INTERNAL, startTime: at, attributes: tool }, parent);
    if (call.error !== undefined) span.setStatus(errorStatus(call.error, ctx.content));
    span.end(at);
  }
}
