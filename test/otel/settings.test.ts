import { describe, expect, it } from 'vitest';
import { parseHeaders, redactHeaders, resolveOtelSettings } from '../../src/otel/settings.js';

describe('resolveOtelSettings', () => {
  it('defaults to the local collector over http/protobuf, 5 s, no content', () => {
    expect(resolveOtelSettings({})).toEqual({ url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf', headers: {}, timeoutMs: 5000, content: false, tracePer: 'run' });
  });

  it("takes one trace per run (the default) or per row; the config's tracePer too", () => {
    expect(resolveOtelSettings({}, { tracePer: 'row' }).tracePer).toBe('row');
    expect(() => resolveOtelSettings({}, { tracePer: 'rows' })).toThrow(expect.objectContaining({ code: 'USAGE_OTEL_TRACE_PER' }));
  });

  it('appends /v1/traces to the base endpoint; the traces endpoint is used as given and wins', () => {
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/api/public/otel/' }).url).toBe('https://otel.example.com/api/public/otel/v1/traces');
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/custom' }).url).toBe('http://b:9999/custom');
  });

  it('reads the protocol (traces-specific first) and refuses grpc with a hint', () => {
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol).toBe('http/protobuf');
    expect(() => resolveOtelSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(expect.objectContaining({ code: 'USAGE_OTEL_PROTOCOL', hint: 'use http/protobuf (the default) or http/json; grpc is not' }));
  });

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(() => resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' })).toThrow(expect.objectContaining({ code: 'USAGE_OTEL_ENDPOINT' }));
    expect(() => resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(expect.objectContaining({ code: 'USAGE_OTEL_ENDPOINT' }));
  });

  it('flags win over the environment', () => {
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }, { endpoint: 'http://b:4318', timeoutMs: 250, content: true })).toMatchObject({ url: 'http://b:4318/v1/traces', timeoutMs: 250, content: true });
  });
});

describe('headers', () => {
  it("the config's headers win over the variables', name by name", () => {
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2' }, { headers: { b: 'config' } }).headers).toEqual({ a: '1', b: 'config' });
  });

  it('parses k=v pairs, URL-decoded, skipping broken ones; traces headers win', () => {
    expect(parseHeaders('Authorization=Basic%20abc%3D%3D, x-langfuse-ingestion-version=4,broken,=nokey')).toEqual({ Authorization: 'Basic abc==', 'x-langfuse-ingestion-version': '4' });
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3' }).headers).toEqual({ a: '1', b: '3' });
  });

  it('redacts every header value from a message', () => {
    expect(redactHeaders('401 for Basic abc== at host', { Authorization: 'Basic abc==' })).toBe('401 for *** at host');
  });
});
