import { hash } from 'node:crypto';
import type { Tool } from 'ai';
import { canonicalJson } from '../canonical-json.js';
import type { ModelRequest } from './types.js';

/** Bumped when the key's payload changes, so old entries simply miss. */
export const CACHE_KEY_VERSION = 1;

/** sha256 of everything that decides a model's answer, plus the repeat index. */
export function cacheKey(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
  const slash = request.modelName.indexOf('/');
  const payload = {
    version: CACHE_KEY_VERSION,
    provider: slash === -1 ? '' : request.modelName.slice(0, slash),
    model: slash === -1 ? request.modelName : request.modelName.slice(slash + 1),
    kind: request.kind,
    messages: request.messages,
    settings: request.settings,
    tools: request.tools?.map((name) => describeTool(name, tools[name])),
    toolChoice: request.toolChoice,
    maxCalls: request.maxCalls,
    schema: request.schema,
    schemaName: request.schemaName,
    schemaDescription: request.schemaDescription,
    repeat,
  };
  // One-shot hash: no Hash object per key (half the cost for a key's few hundred bytes).
  return hash('sha256', canonicalJson(payload), 'hex');
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
