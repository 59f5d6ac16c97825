import { SpanStatusCode, type SpanStatus } from '@opentelemetry/api';

/**
 * A failed span's status. The message is the row's, a tool's or a provider's error text, which
 * may quote the row (a provider's 400 echoes the request, a tool's error its arguments): it is
 * content, sent only with `--otel-content`. Without it `error.type` still names the failure.
 */
export function errorStatus(message: string, content: boolean): SpanStatus {
  return content ? { code: SpanStatusCode.ERROR, message } : { code: SpanStatusCode.ERROR };
}
