/**
 * One quiet-spell timer per key: the first edit of a file after a pause is checked at once (its
 * diagnostics wait for nothing), and a burst of edits that follows within `delayMs` of one another
 * is checked once more, `delayMs` after its last edit. So a burst costs two checks, however long.
 */
export class Debouncer {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly delayMs: number) {}

  schedule(key: string, action: () => void): void {
    const pending = this.timers.get(key);
    if (pending === undefined) {
      this.timers.set(key, this.quiet(key, undefined));
      action();
      return;
    }
    clearTimeout(pending);
    this.timers.set(key, this.quiet(key, action));
  }

  private quiet(key: string, trailing: (() => void) | undefined): NodeJS.Timeout {
    return setTimeout(() => {
      this.timers.delete(key);
      trailing?.();
    }, this.delayMs);
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
