/**
 * The bench's loopback server as a process of its own, for measuring from outside the harness
 * (bench/outside.sh): `node .bench-dist/serve.js [latencyMs]` prints the base URL on its first
 * line, then serves until SIGTERM or SIGINT, when it prints how many answers it sent.
 */
import { startBenchServer } from './server.js';

const latencyMs = Number(process.argv[2] ?? 0);
if (!Number.isFinite(latencyMs) || latencyMs < 0) {
  process.stderr.write(`serve: latency must be a number of milliseconds ≥ 0, got ${process.argv[2]}\n`);
  process.exit(2);
}
const server = await startBenchServer(latencyMs);
process.stdout.write(`${server.url}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    process.stderr.write(`serve: ${server.requests} answers sent\n`);
    void server.close().then(() => process.exit(0));
  });
}
