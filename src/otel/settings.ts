import { UsageError } from '../errors/index.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** One trace for the whole run (rows are its children), or one trace per row × repeat linked to the run's. */
export type TraceLayout = 'run' | 'row';

/** Where and how a run's trace is sent (`--otel`). */
export interface OtelSettings {
  /** The traces URL (`…/v1/traces`). */
  url: string;
  /** @default 'http/protobuf' */
  protocol: OtlpProtocol;
  /** From OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`); values may be secrets and are never printed. */
  headers: Record<string, string>;
  /** How long the end of a run waits for spans still queued. @default 5000 */
  timeoutMs: number;
  /** Put message content (inputs, outputs, tool arguments) on spans. @default false */
  content: boolean;
  /** `--otel-trace-per`. @default 'run' */
  tracePer: TraceLayout;
}

/** What the CLI flags (or the config's `otel: {…}`) say; the environment fills in the rest. */
export interface OtelFlags {
  endpoint?: string;
  protocol?: string;
  /** Win over the variables' headers, name by name. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  content?: boolean;
  tracePer?: string;
}

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

/**
 * The standard OTLP variables, as the OpenTelemetry specification reads them: the traces
 * endpoint is used as given, the base endpoint gets `/v1/traces` appended; the traces-specific
 * variables win over the general ones.
 */
export function resolveOtelSettings(env: NodeJS.ProcessEnv, flags: OtelFlags = {}): OtelSettings {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = flags.endpoint ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || DEFAULT_ENDPOINT);
  const url = flags.endpoint === undefined && tracesEndpoint ? tracesEndpoint : `${base.replace(/\/+$/, '')}/v1/traces`;
  checkUrl(url);
  const protocol = flags.protocol ?? (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf');
  if (!PROTOCOLS.includes(protocol as OtlpProtocol)) {
    throw new UsageError('USAGE_OTEL_PROTOCOL', `OTLP protocol "${protocol}" is not supported`, { hint: 'use http/protobuf (the default) or http/json; grpc is not' });
  }
  return {
    url,
    protocol: protocol as OtlpProtocol,
    headers: { ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS), ...flags.headers },
    timeoutMs: flags.timeoutMs ?? 5000,
    content: flags.content ?? false,
    tracePer: traceLayout(flags.tracePer),
  };
}

function traceLayout(value: string | undefined): TraceLayout {
  if (value === undefined || value === 'run' || value === 'row') return value ?? 'run';
  throw new UsageError('USAGE_OTEL_TRACE_PER', `--otel-trace-per must be run or row (got "${value}")`, {
    hint: 'run: one trace for the whole run (the default); row: one trace per row, linked to the run\'s (Langfuse)',
  });
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('USAGE_OTEL_ENDPOINT', `the OTLP endpoint "${url}" is not a URL`, { hint: 'e.g. OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError('USAGE_OTEL_ENDPOINT', `the OTLP endpoint "${url}" must be http or https`, { hint: 'grpc endpoints are not supported: use the collector\'s OTLP/HTTP port (4318)' });
  }
}

/** `k=v,k2=v2`, values URL-encoded (W3C baggage format, as the spec says). A bad pair is skipped. */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (key === '') continue;
    try {
      headers[key] = decodeURIComponent(value);
    } catch {
      headers[key] = value;
    }
  }
  return headers;
}

/** Replaces every header value in `text` (an export error may echo a request) with `***`. */
export function redactHeaders(text: string, headers: Record<string, string>): string {
  let out = text;
  for (const value of Object.values(headers)) {
    if (value.length >= 3) out = out.split(value).join('***');
  }
  return out;
}
