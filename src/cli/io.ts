/** A stream the CLI writes to; process.stdout in real use, a buffer in tests. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Width to fit reports to: the terminal's, or `COLUMNS` where stdout is not a terminal. */
  columns?: number;
  /** Colour what is written here (a terminal, or FORCE_COLOR; never with NO_COLOR). */
  color?: boolean;
}

/** What a command may touch of the outside world, injected so tests are exact. */
export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborted on the first Ctrl-C. */
  signal: AbortSignal;
  stdin?: NodeJS.ReadStream;
}

export type CommandRun = (argv: string[], io: CliIO) => Promise<number>;
