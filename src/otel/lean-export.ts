import type { Agent, IncomingMessage } from 'node:http';
import { leanTracer, type LeanSpanData } from './lean-span.js';
import { requestAround, writeSpan } from './otlp-encode.js';
import { ProtoWriter } from './proto-writer.js';
import { redactHeaders, type OtelSettings } from './settings.js';
import type { ExportReport, TraceExport } from './trace-export.js';

/** Spans queued (ended, not yet sent) before any is dropped; as the SDK's batch processor here. */
const MAX_QUEUE = 8192;
/** Spans per export request. */
const BATCH = 512;
/** A partial batch goes out this long after its first span. */
const DELAY_MS = 500;
/** Export requests in flight at once. */
const CONCURRENCY = 4;
/** Statuses OTLP/HTTP says to retry (with backoff, within the request's deadline). */
const RETRYABLE = new Set([429, 502, 503, 504]);
/**
 * Network errors retried as OpenTelemetry's HTTP exporter retries them: a keep-alive socket the
 * collector closed while idle (ECONNRESET, EPIPE on reuse) would otherwise lose a whole batch.
 */
const RETRYABLE_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH']);

interface Batch {
  body: Buffer;
  spans: number;
}

/**
 * The OTLP/HTTP protobuf export without OpenTelemetry's SDK (issue 38: `--otel` was 1.4× a
 * plain run, most of it the SDK's span objects, its batch processor and its serialiser). Each
 * span is encoded into the open batch the moment it ends, so nothing of it is kept; a batch
 * goes out at 512 spans or 500 ms after its first. Same limits and deadlines as the SDK path
 * (exporter.ts): a bounded queue, four requests at once, every request and the final flush
 * bounded by `settings.timeoutMs`.
 */
export async function createLeanExport(settings: OtelSettings, version: string): Promise<TraceExport> {
  const url = new URL(settings.url);
  const http = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const agent: Agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const service = { name: 'agentmark', version };
  const report: ExportReport = { ended: 0, exported: 0, errors: 0 };
  let open = new ProtoWriter(256 * 1024);
  let openSpans = 0;
  let timer: NodeJS.Timeout | undefined;
  const waiting: Batch[] = [];
  let waitingSpans = 0;
  let inFlight = 0;
  let idle: Array<() => void> = [];

  const fail = (message: string): void => {
    report.errors += 1;
    report.lastError = redactHeaders(message, settings.headers);
  };

  const post = (body: Buffer): Promise<{ status: number; retryAfterMs?: number } | { error: string; retryable: boolean }> =>
    new Promise((resolve) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { ...settings.headers, 'content-type': 'application/x-protobuf', 'content-length': String(body.length), 'user-agent': `agentmark/${version}` },
        },
        (response: IncomingMessage) => {
          response.resume();
          response.on('end', () => {
            clearTimeout(deadline);
            const retryAfter = Number(response.headers['retry-after']);
            resolve({ status: response.statusCode ?? 0, ...(Number.isFinite(retryAfter) ? { retryAfterMs: retryAfter * 1000 } : {}) });
          });
          response.on('error', (error: Error) => (clearTimeout(deadline), resolve({ error: error.message, retryable: false })));
        },
      );
      const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${settings.timeoutMs / 1000} s`)), settings.timeoutMs);
      deadline.unref();
      request.on('error', (error: NodeJS.ErrnoException) => (clearTimeout(deadline), resolve({ error: error.message, retryable: RETRYABLE_NETWORK.has(error.code ?? '') })));
      request.end(body);
    });

  const send = async (batch: Batch): Promise<void> => {
    const giveUpAt = Date.now() + settings.timeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      const answer = await post(batch.body);
      if ('status' in answer && answer.status >= 200 && answer.status < 300) {
        report.exported += batch.spans;
        return;
      }
      // Exponential backoff with jitter, as the OTLP exporters do, but never past the deadline.
      const backoff = ('retryAfterMs' in answer ? answer.retryAfterMs : undefined) ?? Math.random() * 1000 * 1.5 ** attempt;
      const retryable = 'error' in answer ? answer.retryable : RETRYABLE.has(answer.status);
      if (!retryable || attempt >= 4 || Date.now() + backoff >= giveUpAt) return fail('error' in answer ? answer.error : `the collector answered HTTP ${answer.status}`);
      // Not unref'd: the run's end waits on it (bounded by the deadline), and an idle loop would end the process.
      await new Promise<void>((resolve) => setTimeout(resolve, backoff));
    }
  };

  const pump = (): void => {
    while (inFlight < CONCURRENCY && waiting.length > 0) {
      const batch = waiting.shift() as Batch;
      waitingSpans -= batch.spans;
      inFlight += 1;
      void send(batch).finally(() => {
        inFlight -= 1;
        pump();
        if (inFlight === 0 && waiting.length === 0 && openSpans === 0) {
          const woken = idle;
          idle = [];
          for (const wake of woken) wake();
        }
      });
    }
  };

  const seal = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (openSpans === 0) return;
    waiting.push({ body: requestAround(open.bytes(), service), spans: openSpans });
    waitingSpans += openSpans;
    openSpans = 0;
    open = new ProtoWriter(256 * 1024);
    pump();
  };

  const onEnd = (span: LeanSpanData): void => {
    report.ended += 1;
    // The queue is full (the collector is slow or down): the span is dropped and counted.
    if (waitingSpans + openSpans >= MAX_QUEUE) return;
    writeSpan(open, span);
    openSpans += 1;
    if (openSpans >= BATCH) seal();
    else if (timer === undefined) {
      timer = setTimeout(seal, DELAY_MS);
      timer.unref();
    }
  };

  const flushAll = (): Promise<void> => {
    seal();
    if (inFlight === 0 && waiting.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => idle.push(resolve));
  };
  const withinDeadline = (work: Promise<unknown>): Promise<void> =>
    new Promise<void>((resolve) => {
      const wait = setTimeout(resolve, settings.timeoutMs);
      wait.unref();
      void work.then(() => (clearTimeout(wait), resolve()));
    });
  return {
    tracer: leanTracer(onEnd),
    flush: () => withinDeadline(flushAll()),
    async finish() {
      await withinDeadline(flushAll());
      // Idle keep-alive sockets go; a request still open ends at its own timeout (the same deadline).
      agent.destroy();
      return { ...report };
    },
  };
}
