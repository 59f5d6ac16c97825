/**
 * What the bench server answers, in each API's shape: `answer <n>` for the first number in the
 * last user message, so a dataset row `{"input":{"q":"question 7"},"expected_output":"answer 7"}`
 * passes `exact_match` whichever API (live or batch, OpenAI or Anthropic) carried it.
 */
import type { ServerResponse } from 'node:http';

const CREATED = 1_700_000_000;

/** Counts of one provider's batch traffic since the server's last `reset()`. */
export interface BatchStats {
  /** Request files uploaded (OpenAI only: Anthropic takes the requests in the create). */
  uploads: number;
  /** Batches created. */
  creates: number;
  /** Request lines in the batches created. */
  lines: number;
  /** Reads of a batch's state. */
  polls: number;
  /** Result files downloaded. */
  downloads: number;
  cancels: number;
}

export function emptyBatchStats(): BatchStats {
  return { uploads: 0, creates: 0, lines: 0, polls: 0, downloads: 0, cancels: 0 };
}

/** `answer <n>` for a request's messages, or undefined when there are none. */
export function answerText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  let lastUser = '';
  for (const message of messages as unknown[]) {
    if (isRecord(message) && message.role === 'user') lastUser = contentText(message.content);
  }
  return `answer ${/\d+/.exec(lastUser)?.[0] ?? '0'}`;
}

export function modelOf(body: Record<string, unknown>): string {
  return typeof body.model === 'string' ? body.model : 'bench';
}

/** An OpenAI chat completion. */
export function chatCompletion(model: string, text: string, n: number): Record<string, unknown> {
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
  };
}

/** An Anthropic Messages API message. */
export function anthropicMessage(model: string, text: string, n: number): Record<string, unknown> {
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 8, output_tokens: 2 },
  };
}

export function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, text: string, contentType: string): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
