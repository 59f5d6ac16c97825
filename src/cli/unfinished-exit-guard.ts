import { writeSync } from 'node:fs';
import { ExitCode } from './exit-codes.js';

/** What the guard needs of the process: node's own in the CLI, a stand-in in tests. */
export interface GuardedProcess {
  on(event: 'beforeExit', listener: (code: number) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  exitCode?: number | string | null | undefined;
}

export const PENDING_MESSAGE =
  'error: the command stopped with work still pending: a promise in user code (an agent, a provider, a tool or a hook) never settled and nothing was left to settle it\n' +
  '  hint: rows finished before it are kept; `--resume` runs the others\n';

export function exitMessage(code: number): string {
  return (
    `error: process.exit(${code}) was called before the command finished (by user code: an agent, a provider, a tool, a hook or agentmark.config)\n` +
    '  hint: rows finished before it are kept; `--resume` runs the others\n'
  );
}

/**
 * A process that ends while its command is still pending never exits 0. Two ways it can:
 * - the event loop runs dry (`beforeExit`) while the command awaits a promise that nothing can
 *   settle any more (user code awaiting a promise nobody resolves, holding no timer): node would
 *   end with exit 0, no report and the run's manifest still `running`;
 * - user code calls `process.exit(0)` in the middle of a run.
 * Either way the exit code becomes 2 and stderr says why. A non-zero code someone chose (a second
 * Ctrl-C's 130) is kept. `isFinished` turns true once the command returned its code.
 */
export function guardUnfinishedExit(
  target: GuardedProcess,
  isFinished: () => boolean,
  write: (text: string) => void = (text) => writeSync(2, text),
): void {
  let said = false;
  target.on('beforeExit', () => {
    if (isFinished() || said) return;
    said = true;
    write(PENDING_MESSAGE);
    target.exitCode = ExitCode.inputError;
  });
  target.on('exit', (code) => {
    if (isFinished() || said || code !== 0) return;
    said = true;
    write(exitMessage(code));
    // Set in an `exit` listener, this is the code the process ends with.
    target.exitCode = ExitCode.inputError;
  });
}
