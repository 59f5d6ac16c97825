import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { packageFile } from '../../package-paths.js';
import type { ExchangeAnswer, ExchangeFailure, ExchangeRequest } from './exchange.js';
import type { FromHttpThread, ToHttpThread } from './protocol.js';

/** A wait for answers at least this long makes the next ones go one row at a time (see #deliver). */
const ONE_BY_ONE_AFTER_MS = 20;

type Done = (answer: ExchangeAnswer | undefined, failure?: ExchangeFailure) => void;

/**
 * Model requests sent from a worker thread. On a fast server a run's HTTP work (node's client,
 * the socket writes and reads, parsing the answers) is a third of the main thread's time; on a
 * machine with a second core it runs there, beside the rows' own work. The main thread posts
 * the requests of each event-loop turn in one message and gets the answers of each of the
 * worker's turns in one message, whole, so a request costs it a few µs.
 *
 * The thread never keeps the process alive when nothing is in flight. If it dies, the requests
 * in flight fail as a dropped connection would (retried like one) and later requests go out
 * from the main thread again.
 */
export class HttpThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Done>();
  #nextId = 1;
  #queued: Array<ExchangeRequest & { id: number }> = [];
  /** Answers received and not yet handed to their callers, and the next one's place. */
  #inbox: FromHttpThread['results'] = [];
  #next = 0;
  /** When the last answers had all been handed over (`performance.now()`). */
  #idleSince = 0;
  /** The answers in the inbox are handed over one row at a time (see #deliver). */
  #oneByOne = false;
  #dead = false;

  private constructor(file: string) {
    this.#worker = new Worker(file);
    this.#worker.unref();
    this.#worker.on('message', (message: FromHttpThread) => {
      if (this.#inbox.length > 0) {
        for (const result of message.results) this.#inbox.push(result);
        return;
      }
      this.#inbox = message.results;
      // Answers that come after a wait (a slow model's round) go one row at a time; those that
      // come while the rows are busy (a fast server) all at once, as their requests will.
      this.#oneByOne = message.results.length > 1 && performance.now() - this.#idleSince >= ONE_BY_ONE_AFTER_MS;
      this.#deliver();
    });
    this.#worker.on('error', (error) => this.#die(error.message));
    this.#worker.on('exit', (code) => this.#die(`the HTTP thread exited (code ${code})`));
  }

  /**
   * The thread, or undefined when it cannot be had: its bundled script is missing (running from
   * src/ unbuilt) or the process may start no more threads. Requests then go out from the main
   * thread, as they do for short runs.
   */
  static start(): HttpThread | undefined {
    try {
      const file = packageFile('dist', 'bundle', 'http-worker.js');
      return existsSync(file) ? new HttpThread(file) : undefined;
    } catch {
      return undefined;
    }
  }

  get alive(): boolean {
    return !this.#dead;
  }

  /** Nothing in flight or queued. */
  get idle(): boolean {
    return this.#pending.size === 0 && this.#queued.length === 0;
  }

  /**
   * Queues the request; it is posted with the rest of this turn's. Returns the exchange's
   * `cancel`, which abandons it (`done` is then never called).
   */
  exchange(request: ExchangeRequest, done: Done): { cancel(): void } {
    const id = this.#nextId;
    this.#nextId += 1;
    this.#pending.set(id, done);
    if (this.#pending.size === 1) this.#worker.ref();
    // Posted once the rows that woke up with this turn's answers have all asked (their promise
    // chains run before the next tick): one message per turn, without waiting for the poll phase.
    if (this.#queued.length === 0) process.nextTick(() => this.#post());
    this.#queued.push({ id, ...request });
    return {
      cancel: () => {
        if (!this.#pending.delete(id)) return;
        const queuedAt = this.#queued.findIndex((each) => each.id === id);
        if (queuedAt !== -1) this.#queued.splice(queuedAt, 1);
        else this.#send({ type: 'cancel', id });
        if (this.#pending.size === 0) this.#worker.unref();
      },
    };
  }

  /** Stops the thread; requests in flight fail. */
  async close(): Promise<void> {
    this.#die('the HTTP thread was closed');
    await this.#worker.terminate();
  }

  /**
   * Hands the received answers to their callers. Resolved all together, the rows' promise chains
   * run interleaved, step by step, and every row's next request leaves only once all of them are
   * handled, in one message. When the answers came after a wait (`#oneByOne`), they are handed
   * over one at a time instead: each row's chain runs until it waits again (for its next request,
   * usually) before the next answer is handed over, and the requests queued by then are posted
   * first. A latency-bound run's answers arrive together, a round at a time; all at once, each
   * round of requests waited for the whole previous round's handling (50 rows at c=50). A fast
   * server's answers keep coming while the rows are busy: for those one message a round costs
   * the least (one at a time cost a 10,000-row run at 0 ms 1.3× the CPU).
   */
  readonly #deliver = (): void => {
    this.#post();
    while (this.#next < this.#inbox.length) {
      const result = this.#inbox[this.#next] as FromHttpThread['results'][number];
      this.#next += 1;
      const done = this.#pending.get(result.id);
      if (done === undefined) continue;
      this.#pending.delete(result.id);
      if ('answer' in result) done(result.answer);
      else done(undefined, result.failure);
      if (this.#oneByOne && this.#next < this.#inbox.length) {
        // A tick queued from a microtask runs once the microtask queue is empty: after this
        // row's chain has run as far as it can.
        queueMicrotask(() => process.nextTick(this.#deliver));
        return;
      }
    }
    this.#inbox = [];
    this.#next = 0;
    // Once the last rows' chains have run too (the wait starts when their work is done).
    queueMicrotask(() => process.nextTick(this.#idle));
    if (this.#pending.size === 0) this.#worker.unref();
  };

  readonly #idle = (): void => {
    this.#idleSince = performance.now();
  };

  #post(): void {
    const requests = this.#queued;
    this.#queued = [];
    if (requests.length > 0) this.#send({ type: 'send', requests });
  }

  #send(message: ToHttpThread): void {
    if (!this.#dead) this.#worker.postMessage(message);
  }

  #die(reason: string): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#queued = [];
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#worker.unref();
    for (const done of pending) done(undefined, { message: reason, code: 'ECONNRESET' });
  }
}
