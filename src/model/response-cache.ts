import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from 'ai';
import { cacheKey } from './cache-key.js';
import { CacheSegment } from './cache-segment.js';
import type { ModelRequest, ModelResponse } from './types.js';

/** A stored answer, as the live call returned it. */
export type CachedResponse = ModelResponse;

/**
 * Model answers on disk: 256 append-only segment files `<dir>/<2 hex>.jsonl`, one JSON line per
 * request × repeat, picked by the key's first byte. Appending beats a file per answer by two
 * orders of magnitude where creating a file is slow (measured here: ~0.6 ms to create and rename
 * a file, ~4 µs to append a line), and it keeps the guarantees: concurrent runs append whole
 * lines, a line torn by a kill reads as a miss, and a later entry for a key wins. Holds no
 * secrets: the key hashes the request only.
 */
export class ResponseCache {
  private readonly segments = new Map<string, CacheSegment>();
  private dirReady = false;

  constructor(readonly dir: string) {}

  /** sha256 of everything that decides the answer, plus the repeat index. */
  key(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
    return cacheKey(request, repeat, tools);
  }

  /** The stored answer, or undefined when there is none or its line is unreadable or partial. */
  async get(key: string): Promise<CachedResponse | undefined> {
    const entry = this.segment(key).read(key);
    const response = entry !== null && typeof entry === 'object' ? (entry as { response?: unknown }).response : undefined;
    if (!isResponse(response)) return undefined;
    return { ...response, costUsd: response.costUsd ?? undefined };
  }

  async set(key: string, response: ModelResponse): Promise<void> {
    this.setSync(key, response);
  }

  /** Stores an answer; a failed write is reported to `onError`, never thrown (the answer was paid for). */
  store(key: string, response: ModelResponse, onError?: (error: unknown) => void): void {
    try {
      this.setSync(key, response);
    } catch (error) {
      onError?.(error);
    }
  }

  /** Appends one entry as a single line (the key first, so lookups index without parsing). */
  private setSync(key: string, response: ModelResponse): void {
    if (!this.dirReady) {
      mkdirSync(this.dir, { recursive: true });
      this.dirReady = true;
    }
    this.segment(key).append(key, JSON.stringify({ key, response: { ...response, cached: false } }));
  }

  /** Releases the files kept open for appending; the cache stays usable (they reopen on demand). */
  close(): void {
    for (const segment of this.segments.values()) segment.close();
  }

  /** The segment file holding a key. */
  pathOf(key: string): string {
    return join(this.dir, `${key.slice(0, 2)}.jsonl`);
  }

  private segment(key: string): CacheSegment {
    const path = this.pathOf(key);
    let segment = this.segments.get(path);
    if (!segment) {
      segment = new CacheSegment(path);
      this.segments.set(path, segment);
    }
    return segment;
  }
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
