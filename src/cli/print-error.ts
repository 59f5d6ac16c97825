import { isAgentmarkError } from '../errors/index.js';
import { createPalette } from '../report/palette.js';
import { fitProse } from '../report/fit-prose.js';
import { ExitCode } from './exit-codes.js';
import { storeWriteError } from '../store/write-error.js';
import type { OutStream } from './io.js';

/**
 * Known errors print as one clear message, no stack; anything else is a bug of ours and
 * prints with its stack so it can be reported.
 */
export function printError(thrown: unknown, stderr: OutStream, cwd?: string): number {
  // A file that cannot be written (full disk, size limit, read-only folder) anywhere the store
  // did not already say so (a report file, the cache) is the machine's state, not a bug of ours.
  const path = thrown instanceof Error ? (thrown as NodeJS.ErrnoException).path : undefined;
  const error = path === undefined ? thrown : storeWriteError(thrown, path);
  if (isAgentmarkError(error)) {
    // Only the label is coloured: the message itself may be copied into an issue or a search.
    // On a terminal the message and its hint wrap at words to its width, as the tables fit it.
    const text = fitProse(`error: ${error.format(cwd)}`, stderr.columns !== undefined && stderr.columns > 0 ? stderr.columns : undefined);
    stderr.write(`${stderr.color ? `${createPalette(true).error('error:')}${text.slice('error:'.length)}` : text}\n`);
    return error.exitCode;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`internal error (please report it): ${text}\n`);
  return ExitCode.inputError;
}
