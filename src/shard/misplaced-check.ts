import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { packageFile } from '../package-paths.js';
import { firstMisplaced, type Misplaced, type ShardFile } from './misplaced-rows.js';

/**
 * The check that every row of each shard belongs there by its content (firstMisplaced), run on
 * a second thread while the merge copies the rows: it parses every row a second time and hashes
 * its content, about as much work as the merge's own, so on two cores the merge takes the time
 * of the longer of the two instead of their sum. Without the thread (its bundled script missing,
 * as when running from src/, or no thread to be had, or the thread failing) the check runs here
 * when its answer is asked for: the same answer, later.
 */
export class MisplacedCheck {
  readonly #files: ShardFile[];
  readonly #worker: Worker | undefined;
  readonly #answer: Promise<Array<Misplaced | null> | undefined>;

  constructor(files: ShardFile[]) {
    this.#files = files;
    this.#worker = files.length === 0 ? undefined : startWorker(files);
    const worker = this.#worker;
    this.#answer = worker === undefined
      ? Promise.resolve(undefined)
      : new Promise((resolve) => {
        worker.once('message', (answer: Array<Misplaced | null>) => resolve(answer));
        worker.once('error', () => resolve(undefined));
        worker.once('exit', () => resolve(undefined));
      });
  }

  /** Whether the check runs on its own thread (the bundled worker was found and started). */
  get threaded(): boolean {
    return this.#worker !== undefined;
  }

  /** Per file (in the order given), its first misplaced row, or undefined when every row is in its shard. */
  async result(): Promise<Array<Misplaced | undefined>> {
    const answer = await this.#answer;
    if (answer !== undefined) return answer.map((entry) => entry ?? undefined);
    return this.#files.map((file) => firstMisplaced(file));
  }

  /** Stops the thread (the merge failed before it needed the answer). */
  stop(): void {
    void this.#worker?.terminate();
  }
}

function startWorker(files: ShardFile[]): Worker | undefined {
  try {
    const file = packageFile('dist', 'bundle', 'misplaced-worker.js');
    return existsSync(file) ? new Worker(file, { workerData: files }) : undefined;
  } catch {
    return undefined;
  }
}
