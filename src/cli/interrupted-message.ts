import { StdoutClosed } from './guarded-stream.js';

/** What an interrupted run says on stderr: why it stopped (Ctrl-C, or stdout closed) and how to go on. */
export function interruptedMessage(signal: AbortSignal, runId: string | undefined): string {
  const resume = runId === undefined ? '' : `; continue with --resume ${runId}`;
  const reason: unknown = signal.reason;
  if (reason instanceof StdoutClosed) return `stopped: ${reason.message}; finished rows are saved${resume}\n`;
  return `interrupted: finished rows are saved${resume}\n`;
}
