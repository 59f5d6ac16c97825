/**
 * Work queued by key and run one piece at a time, after the pieces before it; a key already
 * queued (or under way) is not queued twice. A failure only ends its own piece: the caller tries
 * again later (the next sync).
 */
export class BackgroundCopies {
  readonly #queued = new Set<string>();
  #last: Promise<void> = Promise.resolve();

  add(key: string, work: () => Promise<void>): void {
    if (this.#queued.has(key)) return;
    this.#queued.add(key);
    this.#last = this.#last
      .then(work)
      .catch(() => undefined)
      .finally(() => this.#queued.delete(key));
  }

  /** Resolves once the work queued so far is done (or failed). */
  settled(): Promise<void> {
    return this.#last;
  }
}
