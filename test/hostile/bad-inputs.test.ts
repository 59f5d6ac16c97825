/**
 * Every malformed project under test/fixtures/bad/ gets its one clear error and exit code:
 * no stack trace, no "internal error", no hang, well within a second of CPU. All cases run through
 * the CLI's own `main` in-process (the exact code path of the binary, minus process start-up),
 * and a representative subset also runs the built binary as a child process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from '../helpers/run-cli.js';
import { expectedLines, listBadCases, materialise, type BadCase } from './bad-cases.js';

const cases = await listBadCases();

/** Child env: a model URL nothing listens on, so run-experiment rows fail fast, never leave the machine. */
const ENV = { OPENAI_API_KEY: 'sk-test-bad-inputs', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', NO_COLOR: '1' };

/**
 * CPU time of an in-process case: what the code itself spends, which other processes on a
 * loaded two-core machine do not stretch as they stretch wall time. The target is one second
 * (see the timings printed at the end); a pathological input (an alias bomb, a quadratic parse)
 * burns far more.
 */
const CPU_LIMIT_MS = 3_000;
/**
 * A case that has not finished by now is a hang (waiting that costs no CPU, such as a retry
 * backoff, ends up here). No wall-time bound below it: on a busy machine the scheduler, not the
 * code, decides most of the wall time, and the CPU bound above is what holds the code to account.
 */
const HANG_MS = 15_000;

/** Run as child processes too: one of each command, each loader, and the large generated inputs. */
const PROCESS_SUBSET = new Set([
  'missing-agentmark-json',
  'agentmark-json-schema',
  'frontmatter-yaml-syntax',
  'unknown-capitalised-tag',
  'import-cycle',
  'dataset-row-without-input',
  'invalid-utf8-prompt',
  'binary-garbage-prompt',
  'yaml-alias-bomb',
  'yaml-self-alias',
  'expr-constructor-constructor',
  'dataset-10mb-line',
  'prop-path-10000-segments',
  'render-unknown-identifier',
  'props-file-deep-nesting',
  'run-experiment-bad-dataset-line',
  'run-experiment-unknown-eval',
  'dataset-proto-row',
  'import-outside-project',
  'dataset-symlink-outside',
  'props-file-outside-project',
  'tags-50000-deep',
  'run-experiment-constructor-constructor',
  'deeply-nested-json-row',
]);

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const timings: Array<{ name: string; ms: number }> = [];

/** `cpuMs`: CPU time of this process (user + system) while the case ran. */
async function runInProcess(args: string[], cwd: string): Promise<Outcome & { cpuMs: number }> {
  const { main } = await import('../../src/cli/main.js');
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: { ...ENV },
    signal: new AbortController().signal,
  };
  const startCpu = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung for ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    const code = await Promise.race([main(args, io), hang]);
    const cpu = process.cpuUsage(startCpu);
    return { code, stdout, stderr, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    clearTimeout(timer);
  }
}

async function runAsProcess(args: string[], cwd: string): Promise<Outcome> {
  const result = await runCli(args, { cwd, env: ENV, timeoutMs: HANG_MS });
  // runCli kills a hung child at HANG_MS: no exit code, which `check` reports.
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

function check(badCase: BadCase, dir: string, outcome: Outcome): void {
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  const lines = output.split('\n').map((line) => line.trimEnd());
  expect(outcome.code, output).toBe(badCase.exitCode);
  for (const { shown, matches } of expectedLines(badCase, dir)) {
    expect(lines.some(matches), `missing line:\n${shown}\nin output:\n${output}`).toBe(true);
  }
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('internal error');
}

it('has at least 40 cases, each with a command, an exit code and expected lines', () => {
  expect(cases.length).toBeGreaterThanOrEqual(40);
  for (const badCase of cases) {
    expect(badCase.command.length, badCase.name).toBeGreaterThan(0);
    expect([0, 1, 2], badCase.name).toContain(badCase.exitCode);
    expect(badCase.lines.length, badCase.name).toBeGreaterThan(0);
  }
  for (const name of PROCESS_SUBSET) expect(cases.map((c) => c.name)).toContain(name);
});

describe('bad inputs through the CLI (in-process main)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (name, badCase) => {
    const { dir, cleanup } = await materialise(badCase);
    try {
      const outcome = await runInProcess(badCase.command, dir);
      timings.push({ name, ms: outcome.cpuMs });
      check(badCase, dir, outcome);
      expect(outcome.cpuMs).toBeLessThan(CPU_LIMIT_MS);
    } finally {
      await cleanup();
    }
  });
});

describe('bad inputs through the built binary', () => {
  const subset = cases.filter((c) => PROCESS_SUBSET.has(c.name));
  it.each(subset.map((c) => [c.name, c] as const))('%s', async (_name, badCase) => {
    const { dir, cleanup } = await materialise(badCase);
    try {
      check(badCase, dir, await runAsProcess(badCase.command, dir));
    } finally {
      await cleanup();
    }
  });
});

afterAll(() => {
  const worst = [...timings].sort((a, b) => b.ms - a.ms)[0];
  if (worst) console.log(`bad inputs: slowest in-process case ${worst.name} took ${Math.round(worst.ms)} ms of CPU`);
});
