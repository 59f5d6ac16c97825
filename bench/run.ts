/**
 * The benchmark runner: `npm run bench [-- --only <scenario>[,<scenario>...]] [--runs N]`.
 * Starts the loopback server, runs each scenario against the compiled CLI, prints a table and
 * writes bench/results/latest.json (or latest-partial.json with --only, so a partial run never
 * replaces the full figures).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { rssMethod } from './measure.js';
import { machineInfo, renderTable, writeResults, type BenchResults, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';
import { scenarios } from './scenarios.js';
import { startBenchServer } from './server.js';

const DEFAULT_RUNS = 5;

/** The repository root: the compiled runner lives in `.bench-dist/`, the source in `bench/`. */
function repoRoot(): string {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bench'))) return dir;
    dir = join(dir, '..');
  }
  throw new Error('bench: cannot find the repository root (package.json next to bench/)');
}

function usage(): string {
  return [
    'Usage: npm run bench [-- --only <scenario>[,<scenario>...]] [--runs N]',
    '',
    `Scenarios: ${scenarios.map((scenario) => scenario.id).join(', ')}`,
    `--runs N   measured runs per scenario (default ${DEFAULT_RUNS}; 3 for scale, 1 for scale1m)`,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { only: { type: 'string' }, runs: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(usage());
    return 0;
  }
  const only = values.only?.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = only?.filter((id) => !scenarios.some((scenario) => scenario.id === id)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown scenario ${unknown.join(', ')}\n${usage()}`);
    return 2;
  }
  const runsFlag = values.runs === undefined ? undefined : Number(values.runs);
  if (runsFlag !== undefined && (!Number.isInteger(runsFlag) || runsFlag < 1)) {
    process.stderr.write(`bench: --runs takes a whole number of at least 1, got ${values.runs}\n`);
    return 2;
  }

  const root = repoRoot();
  const bin = join(root, 'dist', 'bundle', 'agentmark.cjs');
  if (!existsSync(bin)) {
    process.stderr.write(`bench: ${bin} is missing; run \`npm run build\` first (npm run bench does)\n`);
    return 2;
  }
  const selected = only === undefined ? scenarios : scenarios.filter((scenario) => only.includes(scenario.id));
  const server = await startBenchServer();
  const context: BenchContext = {
    bin,
    server,
    nodeStartMs: undefined,
    peakRssMb: {},
    log: (message) => process.stderr.write(`${message}\n`),
  };
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of selected) {
      const runs = runsFlag ?? scenario.defaultRuns ?? DEFAULT_RUNS;
      context.log(`${scenario.title} — ${runs} run${runs === 1 ? '' : 's'}`);
      // Other work on the machine skews every figure; keep the load next to them.
      const loadBefore = round2(loadavg()[0] ?? 0);
      try {
        const result = await scenario.run(context, runs);
        result.details.loadAverage1mBefore = loadBefore;
        result.details.loadAverage1mAfter = round2(loadavg()[0] ?? 0);
        results.push(result);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        results.push({ id: scenario.id, title: scenario.title, status: 'failed', notes: [`bench error: ${message}`], metrics: [], details: {} });
      }
    }
  } finally {
    await server.close();
  }

  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const output: BenchResults & { cliVersion: string | undefined } = {
    date: new Date().toISOString(),
    machine: machineInfo(rssMethod),
    cliVersion: packageJson.version,
    runs: runsFlag ?? DEFAULT_RUNS,
    scenarios: results,
  };
  const file = join(root, 'bench', 'results', only === undefined ? 'latest.json' : 'latest-partial.json');
  await writeResults(file, output);
  process.stdout.write(`\n${renderTable(output)}\nwritten: ${file}\n`);
  const failed = results.filter((result) => result.status === 'failed');
  return failed.length > 0 ? 1 : 0;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

process.exitCode = await main();
