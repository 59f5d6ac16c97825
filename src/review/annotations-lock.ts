import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RunLock } from '../store/run-lock.js';
import { RunStoreError } from '../store/store-error.js';

/**
 * The folder (inside the run folder) holding the annotations' lock file. The run's own lock
 * (`run.lock`) is the runner's; a run being labelled while it runs needs a second one.
 */
export const ANNOTATIONS_LOCK_DIR = 'annotations.lock';

/** How long a writer waits for another process's append before giving up. */
const GIVE_UP_MS = 60_000;

/** Writers of this process, one chain per run folder: they wait here, not on the lock file. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` while no other writer of the run's annotations runs: in this process (the viewer's
 * concurrent requests) through a promise chain, across processes (an `annotate --import`, a
 * second viewer) through a lock file with the run lock's atomic create and stale takeover (a
 * writer killed holding it does not block the next). Node has no flock(2): a process finding
 * the lock held polls it, a few milliseconds at first.
 */
export function withAnnotationsLock<T>(runDir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(runDir) ?? Promise.resolve();
  const mine = previous.catch(() => undefined).then(() => holdingLockFile(runDir, work));
  const settled = mine.catch(() => undefined);
  queues.set(runDir, settled);
  void settled.then(() => {
    if (queues.get(runDir) === settled) queues.delete(runDir);
  });
  return mine;
}

async function holdingLockFile<T>(runDir: string, work: () => Promise<T>): Promise<T> {
  const dir = join(runDir, ANNOTATIONS_LOCK_DIR);
  await mkdir(dir, { recursive: true });
  const started = Date.now();
  let lock: RunLock | undefined;
  for (let wait = 1; lock === undefined; wait = Math.min(wait * 2, 50)) {
    try {
      lock = RunLock.acquire(dir, 'annotations');
    } catch (error) {
      if (!(error instanceof RunStoreError && error.code === 'STORE_RUN_LOCKED')) throw error;
      if (Date.now() - started > GIVE_UP_MS) {
        throw new RunStoreError('STORE_ANNOTATIONS_LOCKED', `the run's labels are being written by another process: ${error.message}`, {
          location: { file: join(dir, 'run.lock') },
          hint: 'wait for that process to finish; if none is running, delete the lock file',
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  try {
    return await work();
  } finally {
    lock.release();
  }
}
