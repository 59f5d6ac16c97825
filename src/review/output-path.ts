import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../errors/index.js';

/** Where a path really points: links followed, for the file itself or (not there yet) its folder. */
async function realPath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path));
  }
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Refuses an output file that is one of the files a command reads or the store keeps: anything
 * under the project's `.agentmark/` (a run's results, manifest or labels, another run's, the cache)
 * or inside the run folder read (a CI artifact outside the store). Appending rows there would
 * leave the run unreadable. Links are followed. A UsageError (exit 2) naming the flag.
 */
export async function refuseStoreOutput(flag: string, given: string, path: string, places: { agentmarkDir: string; runDir: string }): Promise<void> {
  const target = await realPath(path);
  if (inside(await realPath(places.agentmarkDir), target)) {
    throw new UsageError('USAGE_OUTPUT_IN_STORE', `${flag} ${given}: this file is inside the run store (.agentmark/), which agentmark writes and reads runs from`, {
      hint: 'write the dataset where datasets go, e.g. datasets/from-run.jsonl',
    });
  }
  if (inside(await realPath(places.runDir), target)) {
    throw new UsageError('USAGE_OUTPUT_IN_STORE', `${flag} ${given}: this file is inside the run folder it reads`, {
      hint: 'write the dataset where datasets go, e.g. datasets/from-run.jsonl',
    });
  }
}
