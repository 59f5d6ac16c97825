import { isAgentmarkError } from '../errors/index.js';
import { createPalette } from '../report/palette.js';
import { ExitCode } from './exit-codes.js';
import type { OutStream } from './io.js';

/**
 * Known errors print as one clear message, no stack; anything else is a bug of ours and
 * prints with its stack so it can be reported.
 */
export function printError(error: unknown, stderr: OutStream, cwd?: string): number {
  if (isAgentmarkError(error)) {
    // Only the label is coloured: the message itself may be copied into an issue or a search.
    stderr.write(`${stderr.color ? createPalette(true).error('error:') : 'error:'} ${error.format(cwd)}\n`);
    return error.exitCode;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`internal error (please report it): ${text}\n`);
  return ExitCode.inputError;
}
