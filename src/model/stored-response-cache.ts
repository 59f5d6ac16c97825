import type { AnswerStore } from '../store/answer-store.js';
import { ResponseCache, responseOf, type CachedResponse } from './response-cache.js';
import type { ModelResponse } from './types.js';

/** Lookups of one segment answered one key at a time before the segment is read whole. */
const SEGMENT_AFTER = 32;

/**
 * `cache: "store"`: the response cache shared through the team store, so CI jobs and laptops
 * answer each other's requests. The local folder stays in front of it (a hit there costs no
 * round trip, and it is the journal written before each result line, as without a store); a local
 * miss looks in the store, whose segments (by the key's first hex digit) are read whole once a run
 * has asked for 32 keys of one (as the local cache reads a segment file), the first ones alone; a
 * key not in a segment read is asked for alone too (another job may have written it since). Every answer is written to both; a key stored twice keeps its first
 * entry. A store that fails is reported once through `onError` and the cache goes on locally.
 */
export class StoredResponseCache extends ResponseCache {
  readonly #connect: () => Promise<AnswerStore>;
  #answers: Promise<AnswerStore | undefined> | undefined;
  readonly #segments = new Map<string, Promise<Map<string, string>>>();
  readonly #asked = new Map<string, number>();
  readonly #writes = new Set<Promise<void>>();
  readonly #report: (error: unknown) => void;
  #failed = false;

  /** @param onStoreError the store failed (once): the cache goes on in `dir` alone. */
  constructor(dir: string, onError: (error: unknown) => void, replayDir: string | undefined, connect: () => Promise<AnswerStore>, onStoreError: (error: unknown) => void = onError) {
    super(dir, onError, replayDir);
    this.#connect = connect;
    this.#report = onStoreError;
  }

  override async get(key: string): Promise<CachedResponse | undefined> {
    const local = await super.get(key);
    if (local !== undefined) return local;
    const answers = await this.#store();
    if (answers === undefined) return undefined;
    try {
      const digit = key.charAt(0);
      const asked = (this.#asked.get(digit) ?? 0) + 1;
      this.#asked.set(digit, asked);
      let text: string | undefined;
      // A few keys of a segment are asked for alone (a small run need not read 1/16 of a large
      // cache); from the SEGMENT_AFTER-th on, the segment is read whole once.
      if (asked < SEGMENT_AFTER) text = await answers.get(key);
      else {
        let segment = this.#segments.get(digit);
        if (!segment) this.#segments.set(digit, (segment = answers.segment(digit)));
        const entries = await segment;
        text = entries.get(key);
        if (text === undefined) {
          text = await answers.get(key);
          if (text !== undefined) entries.set(key, text);
        }
      }
      return text === undefined ? undefined : responseOf(JSON.parse(text));
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  override store(key: string, response: ModelResponse): void {
    super.store(key, response);
    const entry = JSON.stringify({ key, response: { ...response, cached: false } });
    const write = this.#store()
      .then((answers) => answers?.put(key, entry))
      .catch((error: unknown) => this.#fail(error))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /** Waits for the store's writes, then closes both. */
  override async close(): Promise<void> {
    await super.close();
    await Promise.all([...this.#writes]);
    const answers = await this.#answers;
    this.#answers = undefined;
    this.#segments.clear();
    await answers?.close().catch(() => undefined);
  }

  #store(): Promise<AnswerStore | undefined> {
    this.#answers ??= this.#connect().catch((error: unknown) => {
      this.#fail(error);
      return undefined;
    });
    return this.#failed ? Promise.resolve(undefined) : this.#answers;
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#report(error);
  }
}
