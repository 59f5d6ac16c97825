import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { redactHeaders, type OtelSettings } from './settings.js';
import type { ExportReport, TraceExport } from './trace-export.js';

export type { ExportReport, TraceExport } from './trace-export.js';

/** Spans queued before any is dropped; a collector that keeps up never gets near it. */
const MAX_QUEUE = 8192;
const BATCH = 512;

/**
 * An OTLP/HTTP trace exporter behind a bounded batch queue. Nothing here waits on the
 * collector longer than `settings.timeoutMs`: every request times out by then, and `finish`
 * stops waiting at the deadline, so a collector that is down, slow or refusing costs a run at
 * most that much and never fails it.
 */
export async function createTraceExport(settings: OtelSettings, version: string): Promise<TraceExport> {
  // The default protocol goes without the SDK (lean-export.ts: a third of the cost per span).
  if (settings.protocol === 'http/protobuf') return (await import('./lean-export.js')).createLeanExport(settings, version);
  const config = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs, concurrencyLimit: 4 };
  const inner: SpanExporter = new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(config);
  const report: ExportReport = { ended: 0, exported: 0, errors: 0 };
  const counting: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
      inner.export(spans, (result) => {
        if (result.code === ExportResultCode.SUCCESS) report.exported += spans.length;
        else {
          report.errors += 1;
          report.lastError = redactHeaders(result.error?.message ?? 'export failed', settings.headers);
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new BatchSpanProcessor(counting, { maxQueueSize: MAX_QUEUE, maxExportBatchSize: BATCH, scheduledDelayMillis: 500, exportTimeoutMillis: settings.timeoutMs });
  const counted: SpanProcessor = {
    onStart: (span, context) => batch.onStart(span, context),
    onEnd: (span) => {
      report.ended += 1;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'agentmark', [ATTR_SERVICE_VERSION]: version }),
    sampler: new AlwaysOnSampler(),
    spanProcessors: [counted],
    // A row with many evals carries one event per eval.
    spanLimits: { eventCountLimit: 1024, attributeCountLimit: 1024 },
  });
  const withinDeadline = (work: Promise<unknown>): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, settings.timeoutMs);
      timer.unref();
      work.then(
        () => (clearTimeout(timer), resolve()),
        () => (clearTimeout(timer), resolve()),
      );
    });
  return {
    tracer: provider.getTracer('agentmark', version),
    flush: () => withinDeadline(batch.forceFlush()),
    async finish() {
      await withinDeadline(batch.forceFlush());
      // Not awaited: a request still open ends at its own timeout (the same deadline).
      provider.shutdown().catch(() => undefined);
      return { ...report };
    },
  };
}

/** One warning line when spans did not get out; undefined when all did. */
export function exportWarning(report: ExportReport, url: string, timeoutMs: number): string | undefined {
  const dropped = report.ended - report.exported;
  if (dropped <= 0 && report.errors === 0) return undefined;
  const why =
    report.lastError === undefined
      ? ` (no answer within ${timeoutMs / 1000} s)`
      : ` (${report.errors} failed export${report.errors === 1 ? '' : 's'}; last: ${report.lastError})`;
  return `otel: ${dropped} of ${report.ended} spans not exported to ${redactUrl(url)}${why}`;
}

/** The URL without credentials or query (a token may hide there too). */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '<endpoint>';
  }
}
