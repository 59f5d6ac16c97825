import type { OutStream } from './io.js';

/** Why a run stopped when stdout went away (`… | head -1`): the abort reason the commands look for. */
export class StdoutClosed extends Error {
  override readonly name = 'StdoutClosed';
}

/**
 * Wraps process.stdout or stderr so that a reader that went away (EPIPE after `| head -1`, or any
 * other write error) never surfaces as an unhandled 'error' event with a stack: later writes are
 * dropped and `onClosed` is called once, with the error.
 */
export function guardedStream(
  stream: NodeJS.WriteStream,
  onClosed: (error: Error) => void = () => {},
  options: {
    /** The width to report when the stream is not a terminal (`COLUMNS`); a terminal's own wins. */
    fallbackColumns?: number;
    /** Whether to colour output here (see `colorSupported`). */
    color?: boolean;
  } = {},
): OutStream {
  let closed = false;
  stream.on('error', (error: Error) => {
    if (closed) return;
    closed = true;
    onClosed(error);
  });
  return {
    write: (text: string) => (closed ? false : stream.write(text)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.isTTY ? stream.columns : options.fallbackColumns;
    },
    color: options.color === true,
  };
}
