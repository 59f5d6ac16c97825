import type { JsonSpan } from './read-otlp-json.js';

/** A dataset row taken from one span. */
export interface TraceRow {
  input: Record<string, unknown>;
  /** What the span's model produced, when the span carries it. */
  output?: unknown;
  traceId: string;
  spanId: string;
}

/**
 * The row a span holds, if any: AgentMark's row spans carry the prompt's input props
 * (`agentmark.row.input`, exported with `--otel-content`); other GenAI spans carry their input
 * messages (`gen_ai.input.messages`), which become `input.messages`. AgentMark's model call
 * spans are skipped: their row span holds the row.
 */
export function spanToRow(span: JsonSpan): TraceRow | undefined {
  const ids = { traceId: span.traceId, spanId: span.spanId };
  const props = parse(span.attributes['agentmark.row.input']);
  if (isRecord(props)) {
    const output = span.attributes['langfuse.observation.output'];
    return { input: props, ...(output === undefined ? {} : { output: outputValue(output) }), ...ids };
  }
  // AgentMark's own model call spans (`agentmark.retries`) repeat their row span's input as messages.
  if (span.attributes['agentmark.retries'] !== undefined) return undefined;
  const messages = parse(span.attributes['gen_ai.input.messages']);
  if (Array.isArray(messages)) {
    const output = assistantText(parse(span.attributes['gen_ai.output.messages']));
    return { input: { messages }, ...(output === undefined ? {} : { output }), ...ids };
  }
  return undefined;
}

/** AgentMark writes an object output as JSON text and a text output as is. */
function outputValue(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  return parse(value) ?? value;
}

/** The text parts of the output messages (GenAI conventions: `[{ role, parts: [{ type: 'text', content }] }]`). */
function assistantText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const texts: string[] = [];
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) if (isRecord(part) && part.type === 'text' && typeof part.content === 'string') texts.push(part.content);
  }
  return texts.length > 0 ? texts.join('') : undefined;
}

function parse(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
