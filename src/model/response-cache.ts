import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from 'ai';
import { cacheKey } from './cache-key.js';
import { CacheSegment } from './cache-segment.js';
import type { ModelRequest, ModelResponse } from './types.js';

/** A stored answer, as the live call returned it. */
export type CachedResponse = ModelResponse;

/**
 * Model answers on disk: 16 append-only segment files `<dir>/<hex digit>.jsonl`, one JSON line
 * per request × repeat, picked by the key's first hex digit. Appending beats a file per answer by
 * two orders of magnitude where creating a file is slow (measured here: ~0.6 ms to create and
 * rename a file, ~4 µs to append a line), and it keeps the guarantees: concurrent runs append
 * whole lines, a line torn by a kill reads as a miss, and a later entry for a key wins. Sixteen
 * rather than 256 files: even opened off the main thread, each open cost the run ~0.15 ms of
 * main-thread time (38 ms for 256 in a 3,000-row run), and a lookup indexes one whole segment,
 * which stays cheap at 1/16 of any cache a project builds. Holds no secrets: the key hashes
 * the request only.
 *
 * A replay folder (`replayDir`) holds segments in the same format, recorded once and committed:
 * it is only ever read, and it is looked up before `dir` so that an offline run of the committed
 * project shows the same answers on every machine and in CI, whatever a local live run left in
 * `dir`. `dir` answers the requests the replay folder lacks (new or edited prompts).
 */
export class ResponseCache {
  private readonly segments = new Map<string, CacheSegment>();
  private readonly replaySegments = new Map<string, CacheSegment>();
  private dirReady = false;

  constructor(
    readonly dir: string,
    /** A failed cache write (reported, never thrown: the answer was paid for and the row goes on). */
    private readonly onError: (error: unknown) => void = () => {},
    /** Read-only folder of recorded answers, looked up first. */
    readonly replayDir?: string,
  ) {}

  /** sha256 of everything that decides the answer, plus the repeat index. */
  key(request: ModelRequest, repeat: number, tools: Record<string, Tool> = {}): string {
    return cacheKey(request, repeat, tools);
  }

  /** The stored answer, or undefined when there is none or its line is unreadable or partial. */
  async get(key: string): Promise<CachedResponse | undefined> {
    const replayed = this.replayDir === undefined ? undefined : responseOf(this.replaySegment(key).read(key));
    if (replayed !== undefined) return replayed;
    const segment = this.segment(key);
    // Our own answers still waiting for their file to open count too.
    await segment.flushed();
    return responseOf(segment.read(key));
  }

  /** Stores an answer and resolves once its line is in the file. */
  async set(key: string, response: ModelResponse): Promise<void> {
    await this.queue(key, response);
    this.segment(key).flush();
  }

  /**
   * Stores an answer; the promise, when there is one, resolves once its line is queued for this
   * turn's write (its segment was still opening). Either way the line reaches the file before any
   * result line appended later (write-turn.ts).
   */
  queue(key: string, response: ModelResponse): Promise<void> | undefined {
    this.store(key, response);
    // Nothing to wait for once the segment is open (every row of a run after its first few).
    return this.segment(key).flushed();
  }

  /** Stores an answer; the line lands in its file now or, while the file opens, shortly after. */
  store(key: string, response: ModelResponse): void {
    if (!this.dirReady) {
      try {
        mkdirSync(this.dir, { recursive: true });
      } catch (error) {
        this.onError(error);
        return;
      }
      this.dirReady = true;
    }
    // The key first, so lookups index a segment without parsing its lines.
    this.segment(key).append(key, JSON.stringify({ key, response: { ...response, cached: false } }));
  }

  /** Writes what is still queued and releases the open files; the cache stays usable. */
  async close(): Promise<void> {
    await Promise.all([...this.segments.values()].map((segment) => segment.close()));
  }

  /** The segment file holding a key. */
  pathOf(key: string): string {
    return join(this.dir, `${key.slice(0, 1)}.jsonl`);
  }

  /** Never appended to: only `read`, which opens the file read-only. */
  private replaySegment(key: string): CacheSegment {
    const path = join(this.replayDir ?? this.dir, `${key.slice(0, 1)}.jsonl`);
    let segment = this.replaySegments.get(path);
    if (!segment) {
      segment = new CacheSegment(path);
      this.replaySegments.set(path, segment);
    }
    return segment;
  }

  /** By the key's first hex digit, the segment's name (no path built per lookup). */
  private segment(key: string): CacheSegment {
    const digit = key.charAt(0);
    let segment = this.segments.get(digit);
    if (!segment) {
      segment = new CacheSegment(this.pathOf(key), this.onError);
      this.segments.set(digit, segment);
    }
    return segment;
  }
}

/** The answer in a segment entry, or undefined when there is none or it is malformed. */
export function responseOf(entry: unknown): CachedResponse | undefined {
  const response = entry !== null && typeof entry === 'object' ? (entry as { response?: unknown }).response : undefined;
  if (!isResponse(response)) return undefined;
  return { ...response, costUsd: response.costUsd ?? undefined };
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
