/** Exit codes shared by every command. */
export const ExitCode = {
  /** Every gate passed. */
  ok: 0,
  /** A gate failed: evals, threshold, errored rows. */
  gateFailed: 1,
  /** Usage or input error: nothing was run, or the run could not start. */
  inputError: 2,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
