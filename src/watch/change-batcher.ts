export type ChangeKind = 'add' | 'change' | 'unlink';

const SETTLE_MS = 25;

/** Changed paths with the last kind seen for each. */
export type ChangeBatch = ReadonlyMap<string, ChangeKind>;

export interface ChangeBatcherOptions {
  /** Quiet time before a batch is flushed. @default 100 */
  delayMs?: number;
  onFlush: (batch: ChangeBatch) => void;
}

/**
 * Trailing debounce over file events. Editors save by writing a temp file and renaming it, and
 * tools touch several files at once; waiting for a short quiet spell turns each burst into
 * one rerun. Nothing is scheduled while idle, so an idle watcher costs no CPU.
 */
export class ChangeBatcher {
  private pending = new Map<string, ChangeKind>();
  private timer: NodeJS.Timeout | undefined;
  private readonly delayMs: number;
  private lastEventAt = 0;
  private settling = false;

  constructor(private readonly options: ChangeBatcherOptions) {
    this.delayMs = options.delayMs ?? 100;
  }

  push(path: string, kind: ChangeKind): void {
    const previous = this.pending.get(path);
    // A file deleted and re-created within one burst is an edit (atomic save), not a new file.
    this.pending.set(path, previous === 'unlink' && kind === 'add' ? 'change' : kind);
    this.lastEventAt = Date.now();
    this.settling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.onQuiet(), this.delayMs);
  }

  /**
   * A timer that fires well after it was due means the process was stalled (a busy machine):
   * the rest of the burst may already be queued as file events that Node has not read yet,
   * since expired timers run before pending I/O. One short extra wait lets them arrive.
   */
  private onQuiet(): void {
    const late = Date.now() - this.lastEventAt - this.delayMs;
    if (late > SETTLE_MS && !this.settling) {
      this.settling = true;
      this.timer = setTimeout(() => this.onQuiet(), SETTLE_MS);
      return;
    }
    this.flush();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.options.onFlush(batch);
  }

  /** Drops pending changes and the timer, so nothing fires after the session ends. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
