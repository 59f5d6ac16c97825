import { isAgentmarkError } from '../errors/index.js';
import { ExitCode } from './exit-codes.js';
import type { OutStream } from './io.js';

/**
 * Known errors print as one clear message, no stack; anything else is a bug of ours and
 * prints with its stack so it can be reported.
 */
export function printError(error: unknown, stderr: OutStream, cwd?: string): number {
  if (isAgentmarkError(error)) {
    stderr.write(`error: ${error.format(cwd)}\n`);
    return error.exitCode;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`internal error (please report it): ${text}\n`);
  return ExitCode.inputError;
}
