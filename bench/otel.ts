/**
 * Scenario 11: the 10k-row overhead run (scenario 2b) with `--otel` to a loopback OTLP/HTTP
 * receiver, against the same run without it, interleaved. Target ≤ 1.3× (issue 28).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { measureNode } from './measure.js';
import { createBenchProject } from './project.js';
import { median, metric } from './report.js';
import { cliEnv } from './context.js';
import type { Scenario } from './scenarios.js';

const ROWS = 10_000;

interface Decoder {
  decode(data: Uint8Array): { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }> };
}

/** Accepts OTLP protobuf, counts the spans (decoded with OpenTelemetry's own decoder), answers 200. */
async function startReceiver(): Promise<{ url: string; spans: () => number; reset: () => void; close: () => Promise<void> }> {
  const require = createRequire(import.meta.url);
  const root = require('otlp-transformer-protobuf/build/src/generated/root.js') as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Decoder } } } } } };
  const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
  let spans = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const decoded = Request.decode(Buffer.concat(chunks));
      for (const resource of decoded.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    reset: () => (spans = 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const otelScenario: Scenario = {
  id: 'otel',
  title: '11 overhead with --otel (10k rows, 0 ms, c=50)',
  async run(context, runs) {
    const notes: string[] = [];
    const project = await createBenchProject(ROWS);
    const receiver = await startReceiver();
    const once = async (otel: boolean) => {
      await project.clearRuns();
      context.server.latencyMs = 0;
      context.server.reset();
      receiver.reset();
      const args = [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--concurrency', '50', '--no-cache', ...(otel ? ['--otel'] : [])];
      const env = { ...cliEnv(context.server), ...(otel ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {}) };
      const run = await measureNode(args, { cwd: project.dir, env, timeoutMs: 300_000 });
      if (run.code !== 0) notes.push(`${otel ? '--otel' : 'plain'}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
      if (context.server.requests !== ROWS) notes.push(`server saw ${context.server.requests} requests, expected ${ROWS}`);
      // The run, then a row span and a chat span per row.
      if (otel && receiver.spans() !== 1 + 2 * ROWS) notes.push(`receiver got ${receiver.spans()} spans, expected ${1 + 2 * ROWS}`);
      return run;
    };
    try {
      await once(false);
      await once(true);
      const plain: number[] = [];
      const withOtel: number[] = [];
      // CPU time (GNU time) is far steadier than the wall on a shared machine: both are reported.
      const plainCpu: number[] = [];
      const otelCpu: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const a = await once(false);
        const b = await once(true);
        plain.push(a.wallMs);
        withOtel.push(b.wallMs);
        if (a.cpuMs !== undefined && b.cpuMs !== undefined) {
          plainCpu.push(a.cpuMs);
          otelCpu.push(b.cpuMs);
        }
        const cpu = a.cpuMs !== undefined && b.cpuMs !== undefined ? ` (CPU ${a.cpuMs.toFixed(0)} / ${b.cpuMs.toFixed(0)} ms)` : '';
        context.log(`  run ${i + 1}/${runs}: ${a.wallMs.toFixed(0)} ms plain, ${b.wallMs.toFixed(0)} ms with --otel${cpu}`);
      }
      const ideal = median(plain);
      return {
        id: 'otel',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('wall with --otel', 'ms', withOtel, { ideal, idealText: 'the same run without --otel', target: { value: ideal * 1.3, source: 'issue 28', text: '≤ 1.3× without --otel' } }),
          metric('wall without --otel', 'ms', plain),
          ...(otelCpu.length === 0 ? [] : [metric('CPU with --otel', 'ms', otelCpu, { ideal: median(plainCpu), idealText: 'the same run without --otel' }), metric('CPU without --otel', 'ms', plainCpu)]),
        ],
        details: {
          rows: ROWS,
          ratio: Math.round((median(withOtel) / ideal) * 100) / 100,
          // The median of the paired ratios: each pair ran back to back, so load drift cancels.
          pairedWallRatio: Math.round(median(withOtel.map((ms, i) => ms / (plain[i] ?? ms))) * 100) / 100,
          ...(otelCpu.length === 0 ? {} : { pairedCpuRatio: Math.round(median(otelCpu.map((ms, i) => ms / (plainCpu[i] ?? ms))) * 100) / 100 }),
        },
      };
    } finally {
      await receiver.close();
      await project.cleanup();
    }
  },
};
