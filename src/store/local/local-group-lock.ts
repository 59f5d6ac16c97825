import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { RunLock } from '../run-lock.js';
import { storeWriteError } from '../write-error.js';

/** How often a process waiting for a group's lock looks again (only while another one merges it). */
const RETRY_MS = 100;

/**
 * A shard group's lock in the local back end: a run lock (a file created atomically; a killed
 * owner's lock is taken over) in `.shard-groups/<hash>/` under the runs folder, a name no run has
 * (run ids never start with a dot). Waits while another live process holds it.
 */
export async function lockLocalGroup(runsDir: string, group: string): Promise<() => Promise<void>> {
  const dir = join(runsDir, '.shard-groups', createHash('sha256').update(group).digest('hex').slice(0, 32));
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw storeWriteError(error, dir);
  });
  for (;;) {
    try {
      const lock = RunLock.acquire(dir, `shard group ${group}`);
      return async () => lock.release();
    } catch (error) {
      if ((error as { code?: string }).code !== 'STORE_RUN_LOCKED') throw error;
      await delay(RETRY_MS);
    }
  }
}
