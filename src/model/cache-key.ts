import { hash } from 'node:crypto';
import type { Tool } from 'ai';
import { canonicalPart } from '../canonical-json.js';
import type { ChatMessage } from '../prompt/types.js';
import type { ModelRequest } from './types.js';

/** Bumped when the key's payload changes, so old entries simply miss. */
export const CACHE_KEY_VERSION = 1;

/**
 * sha256 of everything that decides a model's answer, plus the repeat index: the canonical JSON
 * (`canonicalJson`) of { version, provider, model, kind, messages, settings, tools, toolChoice,
 * maxCalls, schema, schemaName, schemaDescription, repeat }.
 *
 * The text is written field by field in sorted key order, and a plain message ({ role, content }
 * with text content) directly: the generic writer sorted the payload's and every message's keys
 * for every row, about a tenth of what a row allocated on the main thread. The text is the same
 * byte for byte (test/model/cache-key.test.ts), so existing caches still hit.
 */
export function cacheKey(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
  const slash = request.modelName.indexOf('/');
  let text = '{';
  let first = true;
  const field = (name: string, value: unknown): void => {
    const part = name === 'messages' ? messagesJson(value as ChatMessage[]) : canonicalPart(value);
    if (part === undefined) return;
    text += `${first ? '' : ','}"${name}":${part}`;
    first = false;
  };
  // Sorted order: kind, maxCalls, messages, model, provider, repeat, schema, schemaDescription,
  // schemaName, settings, toolChoice, tools, version.
  field('kind', request.kind);
  field('maxCalls', request.maxCalls);
  field('messages', request.messages);
  field('model', slash === -1 ? request.modelName : request.modelName.slice(slash + 1));
  field('provider', slash === -1 ? '' : request.modelName.slice(0, slash));
  field('repeat', repeat);
  field('schema', request.schema);
  field('schemaDescription', request.schemaDescription);
  field('schemaName', request.schemaName);
  field('settings', request.settings);
  field('toolChoice', request.toolChoice);
  field('tools', request.tools?.map((name) => describeTool(name, tools[name])));
  field('version', CACHE_KEY_VERSION);
  // One-shot hash: no Hash object per key (half the cost for a key's few hundred bytes).
  return hash('sha256', `${text}}`, 'hex');
}

/** The messages' canonical JSON; a plain text message without building its sorted copy. */
function messagesJson(messages: ChatMessage[] | undefined): string | undefined {
  if (!Array.isArray(messages)) return canonicalPart(messages);
  let text = '[';
  for (let i = 0; i < messages.length; i += 1) {
    if (i > 0) text += ',';
    text += plainMessageJson(messages[i]) ?? canonicalPart(messages[i]) ?? 'null';
  }
  return `${text}]`;
}

/** `{"content":…,"role":…}` for an object whose only own keys are a string role and string content. */
function plainMessageJson(message: ChatMessage | undefined): string | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const { role, content } = message;
  if (typeof role !== 'string' || typeof content !== 'string' || typeof (message as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const keys = Object.keys(message);
  if (keys.length !== 2 || !((keys[0] === 'role' && keys[1] === 'content') || (keys[0] === 'content' && keys[1] === 'role'))) return undefined;
  return `{"content":${JSON.stringify(content)},"role":${JSON.stringify(role)}}`;
}

/** A tool's name, and its description and JSON schema when the tool object exposes them. */
function describeTool(name: string, tool: Tool | undefined): Record<string, unknown> {
  const described: Record<string, unknown> = { name };
  if (tool === undefined) return described;
  if (typeof tool.description === 'string') described.description = tool.description;
  const schema: unknown = (tool.inputSchema as { jsonSchema?: unknown } | undefined)?.jsonSchema;
  if (schema !== null && typeof schema === 'object' && !('then' in schema)) described.inputSchema = schema;
  return described;
}
