/** What a scripted responder sees of one OpenAI API request, for both endpoints. */
export interface OpenAIRequestInfo {
  /** `/v1/chat/completions` or `/v1/responses`. */
  path: string;
  body: Record<string, unknown>;
  /** The Authorization header as sent, to check which key the client used. */
  authorization: string | undefined;
  model: string;
  /** Every message as `role: text`, one per line (tool results as `tool: output`). */
  messagesText: string;
  lastUserText: string;
  /** The JSON schema asked for (structured output), if any. */
  schema: Record<string, unknown> | undefined;
  /** Names of the tools offered. */
  tools: string[];
  /** Tool results sent back by the client, in order. */
  toolResults: Array<{ callId: string; output: string }>;
}

type Json = Record<string, unknown>;

export function describeRequest(path: string, body: Json, authorization?: string): OpenAIRequestInfo {
  const lines: Array<{ role: string; text: string }> = [];
  const toolResults: OpenAIRequestInfo['toolResults'] = [];
  let schema: Json | undefined;
  let tools: string[] = [];

  if (path === '/v1/responses') {
    for (const item of asArray(body.input)) {
      if (item.type === 'function_call_output') {
        toolResults.push({ callId: String(item.call_id), output: String(item.output) });
        lines.push({ role: 'tool', text: String(item.output) });
      } else if (item.type === 'function_call') {
        lines.push({ role: 'assistant', text: `call ${String(item.name)}(${String(item.arguments)})` });
      } else if (typeof item.role === 'string') {
        lines.push({ role: item.role === 'developer' ? 'system' : item.role, text: contentText(item.content) });
      }
    }
    const format = (body.text as Json | undefined)?.format as Json | undefined;
    if (format?.type === 'json_schema') schema = format.schema as Json;
    tools = asArray(body.tools).map((tool) => String(tool.name));
  } else {
    for (const message of asArray(body.messages)) {
      if (message.role === 'tool') {
        toolResults.push({ callId: String(message.tool_call_id), output: contentText(message.content) });
      }
      lines.push({ role: String(message.role), text: contentText(message.content) });
    }
    const format = body.response_format as Json | undefined;
    if (format?.type === 'json_schema') schema = (format.json_schema as Json | undefined)?.schema as Json | undefined;
    tools = asArray(body.tools).map((tool) => String((tool.function as Json | undefined)?.name));
  }

  const users = lines.filter((line) => line.role === 'user');
  return {
    path,
    body,
    authorization,
    model: String(body.model),
    messagesText: lines.map((line) => `${line.role}: ${line.text}`).join('\n'),
    lastUserText: users[users.length - 1]?.text ?? '',
    schema,
    tools,
    toolResults,
  };
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((item) => item !== null && typeof item === 'object') as Json[]) : [];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}
