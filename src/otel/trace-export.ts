import type { SpanStarter } from './lean-span.js';

/** How an export went: spans the collector did not take, and why. */
export interface ExportReport {
  ended: number;
  exported: number;
  /** Failed export requests (refused, error status, timed out, over the concurrency limit). */
  errors: number;
  /** The last failure's message, with header values redacted. */
  lastError?: string;
}

export interface TraceExport {
  tracer: SpanStarter;
  /** Sends what is queued now, waiting at most the deadline; never throws. */
  flush(): Promise<void>;
  /** Flushes within the deadline, then stops; the report counts what did not get out. */
  finish(): Promise<ExportReport>;
}
