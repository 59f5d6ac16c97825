import { jsonTooDeepAt, MAX_ROW_DEPTH } from '../../dataset/json-depth.js';
import { UsageError } from '../../errors/index.js';
import type { JsonSpan } from './otlp-spans.js';

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
export function spanToRow(span: JsonSpan, file: string): TraceRow | undefined {
  const ids = { traceId: span.traceId, spanId: span.spanId };
  const parse = (key: string): unknown => parseAttribute(span, key, file);
  const props = parse('agentmark.row.input');
  if (isRecord(props)) {
    const output = span.attributes['langfuse.observation.output'];
    return { input: props, ...(output === undefined ? {} : { output: outputValue(output, span, file) }), ...ids };
  }
  // AgentMark's own model call spans (`agentmark.retries`) repeat their row span's input as messages.
  if (span.attributes['agentmark.retries'] !== undefined) return undefined;
  const messages = parse('gen_ai.input.messages');
  if (Array.isArray(messages)) {
    const output = assistantText(parse('gen_ai.output.messages'));
    return { input: { messages }, ...(output === undefined ? {} : { output }), ...ids };
  }
  return undefined;
}

/** AgentMark writes an object output as JSON text and a text output as is. */
function outputValue(value: unknown, span: JsonSpan, file: string): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  return parseAttribute(span, 'langfuse.observation.output', file) ?? value;
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

/**
 * An attribute holding JSON text, parsed; undefined when it is not JSON. Nesting past what a row
 * may hold is refused here, naming the span: the row is written with JSON.stringify, which
 * recurses and would overflow the stack far from the cause.
 */
function parseAttribute(span: JsonSpan, key: string, file: string): unknown {
  const value = span.attributes[key];
  if (typeof value !== 'string') return undefined;
  if (value.length > 2 * MAX_ROW_DEPTH && jsonTooDeepAt(value, MAX_ROW_DEPTH) !== undefined) {
    throw new UsageError('USAGE_BAD_TRACES', `span ${span.spanId || '(no id)'}: its attribute ${key} nests deeper than ${MAX_ROW_DEPTH} levels`, {
      location: { file },
      hint: 'a dataset row cannot nest that deep; leave this span out (--span-name) or fix the exporter',
    });
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
