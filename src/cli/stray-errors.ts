import { writeSync } from 'node:fs';
import { claimBackgroundError, type BackgroundKind } from '../agent/background-errors.js';
import { ExitCode } from './exit-codes.js';

export interface StrayErrors {
  /** Whether one reached no agent row: the command's exit 0 becomes 2. */
  readonly unclaimed: boolean;
}

/**
 * A promise rejected that nobody awaited, or a throw in a timer or callback: node would end the
 * process on it (exit 1, rows in flight lost, the run's manifest left `running`). Agent rows in
 * flight take it as their error (agent/background-errors.ts) and the run goes on. One that no
 * agent row takes (it came when none was in flight, or from other code) is printed with its stack
 * and the run goes on too, but it cannot exit 0: nobody knows what it broke.
 */
export function catchStrayErrors(write: (text: string) => void = (text) => writeSync(2, text)): StrayErrors {
  let unclaimed = false;
  const onStray = (kind: BackgroundKind) => (error: unknown): void => {
    if (claimBackgroundError(error, kind)) return;
    unclaimed = true;
    // After the command returned, exitWhenDone exits with this code.
    if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = ExitCode.inputError;
    const what = kind === 'rejection' ? 'a promise was rejected and never awaited' : 'an error was thrown outside any awaited code (a timer or a callback)';
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    write(`error: ${what}, while no agent row was running: ${text}\n  hint: the command went on; it exits 2, not 0\n`);
  };
  process.on('unhandledRejection', onStray('rejection'));
  process.on('uncaughtException', onStray('exception'));
  return {
    get unclaimed() {
      return unclaimed;
    },
  };
}
