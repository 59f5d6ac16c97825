import { StdoutClosed } from './guarded-stream.js';

/**
 * What an interrupted run says on stderr: why it stopped (Ctrl-C, or stdout closed) and the
 * exact command that continues it (`resume`, see resumeCommand).
 */
export function interruptedMessage(signal: AbortSignal, resume: string | undefined): string {
  const next = resume === undefined ? '' : `; continue with: ${resume}`;
  const reason: unknown = signal.reason;
  if (reason instanceof StdoutClosed) return `stopped: ${reason.message}; finished rows are saved${next}\n`;
  return `interrupted: finished rows are saved${next}\n`;
}
