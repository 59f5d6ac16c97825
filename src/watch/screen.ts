/** Where watch mode writes: process.stdout in real use. */
export interface ScreenStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * Two ways to show a session. On a terminal the whole state is redrawn (cleared first) after
 * every change, so the screen always reads as "now". Anywhere else (CI, a pipe, a log file)
 * each rerun appends one plain block and nothing is ever cleared, so the output stays a
 * readable record and tests can wait for it.
 */
export interface Screen {
  readonly interactive: boolean;
  /** A rerun's (or an error's) block. */
  block(text: string): void;
  /** A one-line notice: a change seen, a run cancelled. */
  note(text: string): void;
  /** Redraws from the session's state (terminal only). */
  refresh(): void;
}

const CLEAR = '\x1b[H\x1b[2J\x1b[3J';

export function createScreen(out: ScreenStream, render: () => string): Screen {
  if (!out.isTTY) {
    return {
      interactive: false,
      block: (text) => void out.write(text),
      note: (text) => void out.write(`${text}\n`),
      refresh: () => {},
    };
  }
  let lastNote = '';
  const refresh = (): void => {
    out.write(`${CLEAR}${render()}${lastNote ? `\n${lastNote}\n` : ''}`);
  };
  return {
    interactive: true,
    block: refresh,
    note: (text) => {
      lastNote = text;
      refresh();
    },
    refresh,
  };
}
