import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { SchemaViolation } from './schema-violation.js';

/** Where runs keep their own answers; a replay folder is the committed, read-only other half. */
export const LIVE_CACHE_DIR = path.join('.agentmark', 'cache');

/**
 * `replayDir` of agentmark.json as an absolute folder, or the problem with it: it must exist
 * (a missing folder would silently turn every offline run into live calls or misses) and it
 * must not be the live cache, which runs write.
 */
export async function resolveReplayDir(
  root: string,
  replayDir: string | undefined,
): Promise<{ dir?: string; problem?: SchemaViolation & { code: `CONFIG_${string}` } }> {
  if (replayDir === undefined) return {};
  const dir = path.resolve(root, replayDir);
  if (dir === path.join(root, LIVE_CACHE_DIR)) {
    return {
      problem: {
        pointer: '/replayDir',
        message: `/replayDir "${replayDir}" is the live response cache, which every run writes`,
        problem: 'is the live cache',
        code: 'CONFIG_REPLAY_DIR_IS_CACHE',
      },
    };
  }
  const isFolder = await stat(dir).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isFolder) {
    return {
      problem: {
        pointer: '/replayDir',
        message: `/replayDir "${replayDir}" is not a folder (${dir})`,
        problem: 'is not a folder',
        code: 'CONFIG_REPLAY_DIR_NOT_FOUND',
      },
    };
  }
  return { dir };
}
