import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from 'ai';
import { canonicalJson } from './canonical-json.js';
import type { ModelRequest, ModelResponse } from './types.js';

/** A stored answer, as the live call returned it. */
export type CachedResponse = ModelResponse;

/** Bumped when the key's payload or the file's shape changes, so old entries simply miss. */
const CACHE_VERSION = 1;

interface CacheFile {
  version: number;
  key: string;
  response: CachedResponse;
}

/**
 * Model answers on disk, one JSON file per request × repeat, under `<dir>/<2 hex>/<key>.json`.
 * Files are written whole (temp file, then rename), so concurrent runs and a killed process never
 * leave a half-written entry under a real key. Holds no secrets: the key hashes the request only.
 */
export class ResponseCache {
  /** Shard folders known to exist, so a run makes one mkdir per folder, not per answer. */
  private readonly shards = new Set<string>();
  /** Writes started by `store` and not yet finished. */
  private readonly pending = new Set<Promise<void>>();

  constructor(readonly dir: string) {}

  /** sha256 of everything that decides the answer, plus the repeat index. */
  key(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
    const slash = request.modelName.indexOf('/');
    const payload = {
      version: CACHE_VERSION,
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
    return createHash('sha256').update(canonicalJson(payload)).digest('hex');
  }

  /** The stored answer, or undefined when there is none or the file is unreadable or partial. */
  async get(key: string): Promise<CachedResponse | undefined> {
    let text: string;
    try {
      text = await readFile(this.pathOf(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const file = JSON.parse(text) as Partial<CacheFile>;
      if (file.version !== CACHE_VERSION || file.key !== key || !isResponse(file.response)) return undefined;
      return { ...file.response, costUsd: file.response.costUsd ?? undefined };
    } catch {
      return undefined;
    }
  }

  async set(key: string, response: ModelResponse): Promise<void> {
    const path = this.pathOf(key);
    const shard = join(this.dir, key.slice(0, 2));
    if (!this.shards.has(shard)) {
      await mkdir(shard, { recursive: true });
      this.shards.add(shard);
    }
    const file: CacheFile = { version: CACHE_VERSION, key, response: { ...response, cached: false } };
    // Same folder as the target, so the rename is atomic and never crosses file systems.
    const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(file)}\n`, 'utf8');
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Starts writing an answer without making the caller wait: the row's result does not depend
   * on the cache, and a run's rows should not queue behind disk writes. `flush` awaits them.
   */
  store(key: string, response: ModelResponse, onError?: (error: unknown) => void): void {
    const write = this.set(key, response).catch((error: unknown) => onError?.(error));
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Waits for every write `store` started. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
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

function isResponse(value: unknown): value is CachedResponse {
  if (value === null || typeof value !== 'object') return false;
  const response = value as Record<string, unknown>;
  const usage = response.usage as Record<string, unknown> | null | undefined;
  return (
    (typeof response.output === 'string' || (response.output !== null && typeof response.output === 'object')) &&
    Array.isArray(response.toolCalls) &&
    typeof usage === 'object' &&
    usage !== null &&
    typeof usage.inputTokens === 'number' &&
    typeof usage.outputTokens === 'number' &&
    typeof usage.totalTokens === 'number' &&
    typeof response.finishReason === 'string' &&
    typeof response.latencyMs === 'number' &&
    (response.costUsd === undefined || response.costUsd === null || typeof response.costUsd === 'number')
  );
}
