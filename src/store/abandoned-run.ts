import { UsageError } from '../errors/index.js';
import { readLockHolder } from './run-lock.js';
import type { RunManifest } from './types.js';

/** `agentmark run-experiment <prompt> --resume <id>`: what continues an unfinished run. */
export function resumeCommandOf(manifest: RunManifest): string {
  const shard = manifest.shard ? ` --shard ${manifest.shard.index}/${manifest.shard.count}` : '';
  return `agentmark run-experiment ${manifest.prompt.path}${shard} --resume ${manifest.id}`;
}

/**
 * Whether the run's writer is gone without finishing: still `running` with a dead (or no) lock
 * holder, or ended `interrupted`/`failed`. A run whose holder is alive is being written.
 */
export function isAbandoned(dir: string, manifest: RunManifest): boolean {
  if (manifest.status === 'interrupted' || manifest.status === 'failed') return true;
  if (manifest.status !== 'running') return false;
  return readLockHolder(dir)?.alive !== true;
}

/**
 * The manifest as a reader should show it: a run left `running` by a process that is gone (a
 * kill -9, a crash) is `interrupted`. The file itself is left alone: only a resume changes it.
 */
export function withLiveStatus(dir: string, manifest: RunManifest): RunManifest {
  return manifest.status === 'running' && isAbandoned(dir, manifest) ? { ...manifest, status: 'interrupted' } : manifest;
}

/**
 * A run without a summary, as `compare` and `runs show` refuse it: interrupted (its process is
 * gone) with the command that continues it, or still running.
 */
export function unfinishedRunError(dir: string, manifest: RunManifest): UsageError {
  const holder = readLockHolder(dir);
  if (manifest.status === 'running' && holder?.alive === true) {
    return new UsageError('USAGE_RUN_NOT_FINISHED', `run ${manifest.id} is still running (process ${holder.owner.pid} on ${holder.owner.host}) and has no summary yet`, {
      hint: 'wait for it to finish',
    });
  }
  const status = manifest.status === 'running' ? 'interrupted' : manifest.status;
  return new UsageError('USAGE_RUN_NOT_FINISHED', `run ${manifest.id} did not finish (${status}) and has no summary; \`--resume\` it: ${resumeCommandOf(manifest)}`, {
    hint: 'the resume keeps the finished rows and runs the rest',
  });
}
