/**
 * The lean OTLP/HTTP export (src/otel/lean-export.ts) against a loopback collector that resets
 * the connection of its first request, as a collector closing an idle keep-alive socket does:
 * the batch is sent again, as OpenTelemetry's HTTP exporter retries such network errors, and
 * no span is lost.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, ROOT_CONTEXT } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createLeanExport } from '../../src/otel/lean-export.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('lean OTLP export', () => {
  it('sends a batch again after the collector reset its connection, and loses no span', async () => {
    const bodies: number[] = [];
    let requests = 0;
    server = createServer((req, res) => {
      requests += 1;
      // The first request: the socket is destroyed before any answer (the client sees ECONNRESET).
      if (requests === 1) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).length);
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const exporter = await createLeanExport({ url: `http://127.0.0.1:${port}/v1/traces`, protocol: 'http/protobuf', headers: {}, timeoutMs: 5000, content: false, tracePer: 'run' }, '0.0.0');
    for (let i = 0; i < 3; i += 1) exporter.tracer.startSpan('agentmark.row', { kind: SpanKind.INTERNAL, startTime: 1000 + i, attributes: { 'agentmark.row.index': i } }, ROOT_CONTEXT).end(1001 + i);
    const report = await exporter.finish();
    expect(report).toEqual({ ended: 3, exported: 3, errors: 0 });
    expect(requests).toBe(2);
    expect(bodies).toHaveLength(1);
  });
});
