import type { OpenAIRequestInfo } from './openai-request.js';

interface AnswerExtras {
  /** Defaults to word counts of the messages and of the answer. */
  usage?: { input: number; output: number };
  /** OpenAI's finish reason (chat) or incomplete reason (responses). */
  finishReason?: string;
}
/** A successful answer: text, a structured object (sent as JSON text), or tool calls. */
export type Answer = AnswerExtras &
  ({ text: string } | { object: unknown } | { toolCalls: Array<{ name: string; args: unknown; id?: string }>; text?: string });

/** Fixed, so answers are byte-for-byte reproducible. */
const CREATED = 1_700_000_000;

export function chatCompletion(info: OpenAIRequestInfo, answer: Answer, id: number): Record<string, unknown> {
  const text = answerText(answer);
  const calls = 'toolCalls' in answer ? answer.toolCalls : [];
  const usage = usageOf(info, answer, text);
  const message: Record<string, unknown> = { role: 'assistant', content: text ?? null };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, index) => ({
      id: call.id ?? `call_${id}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
  }
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: CREATED,
    model: info.model,
    choices: [{ index: 0, message, finish_reason: answer.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop') }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

export function responsesResult(info: OpenAIRequestInfo, answer: Answer, id: number): Record<string, unknown> {
  const text = answerText(answer);
  const calls = 'toolCalls' in answer ? answer.toolCalls : [];
  const usage = usageOf(info, answer, text);
  const output: Array<Record<string, unknown>> = [];
  if (text !== undefined) {
    output.push({
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  calls.forEach((call, index) => {
    output.push({
      type: 'function_call',
      id: `fc_${id}_${index}`,
      call_id: call.id ?? `call_${id}_${index}`,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    });
  });
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: CREATED,
    model: info.model,
    status: answer.finishReason === undefined ? 'completed' : 'incomplete',
    output,
    incomplete_details: answer.finishReason === undefined ? null : { reason: answer.finishReason },
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
  };
}

function answerText(answer: Answer): string | undefined {
  if ('object' in answer) return JSON.stringify(answer.object);
  return answer.text;
}

function usageOf(info: OpenAIRequestInfo, answer: Answer, text: string | undefined): { input: number; output: number } {
  return answer.usage ?? { input: wordCount(info.messagesText), output: wordCount(text ?? '') };
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}
