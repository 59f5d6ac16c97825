/** Failed sign-ins allowed per address in one window. */
export const FAILURES_ALLOWED = 5;
const WINDOW_MS = 60_000;

/**
 * Failed sign-ins per client address, in fixed one-minute windows: after FAILURES_ALLOWED
 * wrong tokens an address is refused (429) until its window ends, right token or not, so a
 * token cannot be guessed by trying many. Bearer tokens and the sign-in form count alike.
 */
export class SignInLimit {
  readonly #windows = new Map<string, { start: number; failures: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until `address` may try again; 0 when it may now. */
  waitFor(address: string): number {
    const window = this.#current(address);
    if (!window || window.failures < FAILURES_ALLOWED) return 0;
    return Math.ceil((window.start + WINDOW_MS - this.now()) / 1000);
  }

  failed(address: string): void {
    const window = this.#current(address);
    if (window) window.failures += 1;
    else this.#windows.set(address, { start: this.now(), failures: 1 });
  }

  #current(address: string): { start: number; failures: number } | undefined {
    const window = this.#windows.get(address);
    if (window && window.start + WINDOW_MS <= this.now()) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }
}
