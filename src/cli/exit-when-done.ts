import { leftOpenWarnings } from '../experiment/hook-handles.js';
import type { OutStream } from './io.js';

/**
 * How long the process may take to end by itself once a command returned. Everything of ours is
 * closed by then (the run's files are written and flushed before the command returns); only what
 * user code left open (a hook's server or interval, a config's timer) can keep it alive longer.
 */
export const LEFTOVER_GRACE_MS = 500;

/**
 * Ends the process with `code` once the command is done, whatever user code left open: a process
 * that ends by itself within the grace period is not touched (the timer does not keep it alive);
 * one still held after it gets a warning naming the hook, then exits.
 */
export function exitWhenDone(code: number, stderr: OutStream, graceMs = LEFTOVER_GRACE_MS): void {
  process.exitCode = code;
  setTimeout(() => {
    for (const line of leftOpenWarnings(process.getActiveResourcesInfo())) stderr.write(line);
    // process.exitCode, not `code`: a stray error after the command returned may have raised it.
    process.exit();
  }, graceMs).unref();
}
