import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
// A built-in module: nothing to load lazily, and a synchronous spawn cannot race a second one.
import { Worker } from 'node:worker_threads';
import { packageFile } from '../../package-paths.js';
import { traceStartup } from '../../startup-trace.js';
import type { EvalParams } from '../types.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';

/** How long a worker may take to load the config before its evals fail. */
const START_TIMEOUT_MS = 30_000;
/**
 * After an eval times out, how long its worker has to answer a ping. A worker that answers was
 * waiting (e.g. on a promise that never settles) and is kept; one that does not is stuck in
 * synchronous code and is terminated. A busy but healthy worker judged stuck only costs a restart.
 */
const PING_TIMEOUT_MS = 1000;
/** A worker whose oldest running eval is older than this counts as busy: the next one may start another. */
const BUSY_MS = 50;

interface Task {
  id: number;
  name: string;
  params: EvalParams;
  started: () => void;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** When the worker took it (its clock runs from then); undefined while queued. */
  begunAt: number | undefined;
  /** Its eval is over (timed out, interrupted) while it waited: it must not start later, unowned. */
  cancelled: boolean;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Loaded the config and takes evals. */
  isReady: boolean;
  tasks: Map<number, Task>;
  /** A liveness check under way, shared by evals that time out together. */
  checking?: Promise<boolean> | undefined;
  pongs: Map<number, () => void>;
}

/** A task's error that runEval records as the eval's error, as is. */
export class WorkerTaskError extends Error {}

/**
 * Runs user scorers in worker threads, so that one that never returns — awaiting forever or
 * looping in synchronous code — can be stopped at `--eval-timeout` while the main thread stays
 * free to time it, to score other rows and to answer Ctrl-C.
 *
 * Workers start on the first eval (a run without user scorers pays nothing), up to `size` of
 * them, and take several evals each (async scorers mostly wait). Each task's clock starts when a
 * worker takes it, so time spent queued behind a stuck scorer is not charged to it. A stuck worker
 * is terminated; the tasks it had not begun go to another worker, those it had begun fail.
 */
export class ScorerPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly setup: WorkerSetup,
    private readonly size: number,
  ) {}

  /** Pool size for a run: its concurrency, capped at the machine's cores. */
  static sizeFor(concurrency: number): number {
    return Math.max(1, Math.min(concurrency, availableParallelism()));
  }

  /** Runs scorer `name` on a worker; `started` is called when a worker takes it. */
  run(name: string, params: EvalParams, control: { signal: AbortSignal; started: () => void }): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.closed) return reject(new WorkerTaskError('the scorer pool is closed'));
      const task: Task = { id: this.nextId++, name, params, started: control.started, resolve, reject, begunAt: undefined, cancelled: false };
      control.signal.addEventListener('abort', () => void this.cancel(task), { once: true });
      void this.dispatch(task);
    });
  }

  /** Terminates every worker; evals still pending fail. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) for (const task of slot.tasks.values()) task.reject(new WorkerTaskError('aborted'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private async dispatch(task: Task): Promise<void> {
    let slot: Slot;
    try {
      slot = this.pick();
    } catch (error) {
      return task.reject(error instanceof Error ? error : new WorkerTaskError(String(error)));
    }
    if (this.closed || task.cancelled) return task.reject(new WorkerTaskError('aborted'));
    slot.tasks.set(task.id, task);
    slot.worker.ref();
    try {
      await slot.ready;
    } catch (error) {
      this.settle(slot, task.id);
      return task.reject(error instanceof Error ? error : new WorkerTaskError(String(error)));
    }
    if (!slot.tasks.has(task.id)) return; // cancelled or moved while the worker started
    try {
      slot.worker.postMessage({ type: 'run', id: task.id, name: task.name, params: task.params } satisfies ToWorker);
    } catch (error) {
      this.settle(slot, task.id);
      const reason = error instanceof Error ? error.message : String(error);
      task.reject(new WorkerTaskError(`the eval's params cannot be passed to a worker thread (${reason})`));
    }
  }

  /**
   * The least loaded worker. Another starts only when every worker is ready and busy (one eval
   * running for a while: CPU-bound or stuck), since each start loads the config again: fast
   * scorers, however many rows, are served by one worker.
   */
  private pick(): Slot {
    let best: Slot | undefined;
    for (const slot of this.slots) if (best === undefined || slot.tasks.size < best.tasks.size) best = slot;
    if (best === undefined) return this.spawn();
    if (best.tasks.size === 0 || this.slots.length >= this.size) return best;
    const now = performance.now();
    const busy = (slot: Slot): boolean => slot.isReady && [...slot.tasks.values()].some((t) => t.begunAt !== undefined && now - t.begunAt > BUSY_MS);
    return this.slots.every(busy) ? this.spawn() : best;
  }

  private spawn(): Slot {
    traceStartup('scorer worker spawned');
    const worker = new Worker(workerFile(), { workerData: this.setup });
    let onReady: () => void = () => undefined;
    let onFailed: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFailed = reject;
    });
    ready.catch(() => undefined);
    const slot: Slot = { worker, ready, isReady: false, tasks: new Map(), pongs: new Map() };
    const startTimer = setTimeout(() => {
      onFailed(new WorkerTaskError(`the scorer worker did not load agentmark.config within ${START_TIMEOUT_MS / 1000}s`));
      void this.kill(slot, 'it did not start');
    }, START_TIMEOUT_MS);
    startTimer.unref();
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        clearTimeout(startTimer);
        traceStartup('scorer worker ready');
        slot.isReady = true;
        onReady();
      } else if (message.type === 'failed') {
        clearTimeout(startTimer);
        onFailed(new WorkerTaskError(`a scorer worker could not load agentmark.config: ${message.message}`));
      } else if (message.type === 'pong') {
        slot.pongs.get(message.id)?.();
      } else if (message.type === 'started') {
        const task = slot.tasks.get(message.id);
        if (task) {
          task.begunAt = performance.now();
          task.started();
        }
      } else {
        const task = this.settle(slot, message.id);
        if (message.type === 'done') task?.resolve(message.result);
        else task?.reject(new WorkerTaskError(message.message));
      }
    });
    worker.on('error', (error) => {
      clearTimeout(startTimer);
      onFailed(new WorkerTaskError(`a scorer worker failed: ${error.message}`));
      void this.kill(slot, `it failed (${error.message})`);
    });
    worker.on('exit', () => {
      clearTimeout(startTimer);
      onFailed(new WorkerTaskError('a scorer worker stopped before it was ready'));
      void this.kill(slot, 'it stopped');
    });
    this.slots.push(slot);
    return slot;
  }

  /** The task leaves its worker; an idle worker no longer keeps the process alive. */
  private settle(slot: Slot, id: number): Task | undefined {
    const task = slot.tasks.get(id);
    slot.tasks.delete(id);
    if (slot.tasks.size === 0) slot.worker.unref();
    return task;
  }

  /** The eval timed out or the run was interrupted: drop the task, and stop its worker if stuck. */
  private async cancel(task: Task): Promise<void> {
    task.cancelled = true;
    const slot = this.slots.find((s) => s.tasks.has(task.id));
    if (slot === undefined) return;
    this.settle(slot, task.id);
    task.reject(new WorkerTaskError('aborted'));
    if (task.begunAt === undefined) return;
    slot.worker.postMessage({ type: 'cancel', id: task.id } satisfies ToWorker);
    slot.checking ??= this.answers(slot).finally(() => (slot.checking = undefined));
    if (!(await slot.checking)) await this.kill(slot, 'a scorer on it never returned');
  }

  /** Whether the worker's event loop answers a ping in time. */
  private answers(slot: Slot): Promise<boolean> {
    const id = this.nextId++;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        slot.pongs.delete(id);
        resolve(false);
      }, PING_TIMEOUT_MS);
      slot.pongs.set(id, () => {
        clearTimeout(timer);
        slot.pongs.delete(id);
        resolve(true);
      });
      slot.worker.postMessage({ type: 'ping', id } satisfies ToWorker);
    });
  }

  /**
   * Removes a worker: tasks it had not begun go elsewhere, tasks it had begun fail. A worker that
   * died before it was ready fails its tasks too, so a worker that cannot start is not restarted
   * in a loop.
   */
  private async kill(slot: Slot, why: string): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const tasks = [...slot.tasks.values()];
    slot.tasks.clear();
    for (const task of tasks) {
      if (task.begunAt === undefined && slot.isReady && !this.closed && !task.cancelled) void this.dispatch(task);
      else task.reject(new WorkerTaskError(`its worker thread was stopped: ${why}`));
    }
    await slot.worker.terminate();
  }
}

/** The bundled worker script, next to the CLI bundle; the library and tests use the same file. */
function workerFile(): string {
  const file = packageFile('dist', 'bundle', 'scorer-worker.js');
  if (!existsSync(file)) throw new WorkerTaskError(`${file} is missing; run \`npm run build\``);
  return file;
}
