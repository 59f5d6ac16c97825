/**
 * Scenario 6: `agentmark watch <prompt>` on a 100-row project whose responses are all cached.
 * Measures the time from writing the prompt file to the rerun's result being shown, alternating
 * between two prompt variants that were both cached beforehand, so every rerun makes zero model
 * calls. It runs twice over:
 *
 * - stdout on a pipe: watch prints one plain-text block per rerun, starting with
 *   `── <prompt path> · run <id>`; the figures are the time to the block's header line and to
 *   the last byte of output that follows it (`save → block end`, the one held to the target);
 * - stdout on a pseudo-terminal (util-linux `script`, as a user's terminal): watch redraws the
 *   whole screen after every change; the figure is the time until a whole screen shows the new
 *   run's results with nothing running (`save → screen shows run`), what the user sees.
 *
 * When the command is not there (yet), the scenario reports "unavailable" instead of failing
 * the bench. Without `script`, the terminal half is left out with a note.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { measureNode } from './measure.js';
import { createBenchProject, type BenchProject } from './project.js';
import { metric, type Metric, type ScenarioResult } from './report.js';
import { cliEnv, type BenchContext } from './context.js';

const ROWS = 100;
export const WATCH_TITLE = `6 watch (${ROWS} rows, cached)`;
const HEADER = /^── (.+) · run (\S+)/;
/** Wait after a block before the next edit: past the watcher's ~100 ms debounce and any trailing output. */
const SETTLE_MS = 600;
const FIRST_BLOCK_TIMEOUT_MS = 30_000;
const RERUN_TIMEOUT_MS = 10_000;
/** Home, clear the screen, clear the scrollback: how every terminal redraw begins. */
const CLEAR = '\x1b[H\x1b[2J\x1b[3J';
const TARGET = { value: 300, source: 'issues 5, 30', text: '≤ 300 ms' };

type Mode = 'pipe' | 'tty';

/** A rerun seen on the output: its run id, and when it was first shown. */
interface Shown {
  at: number;
  runId: string;
}

/** What watching one session's output gives: the reruns shown, in order, and the raw output. */
interface Session {
  child: ChildProcessWithoutNullStreams;
  shown: Shown[];
  /** `performance.now()` of the last chunk of output. */
  lastChunkAt(): number;
  output(): string;
  stderr(): string;
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  exit: Promise<void>;
  /** Ends the session as a user would: SIGINT on a pipe, `q` on the terminal. */
  stop(): void;
}

export async function watchScenario(context: BenchContext, runs: number): Promise<ScenarioResult> {
  const notes: string[] = [];
  const details: ScenarioResult['details'] = { rows: ROWS };
  const metrics: Metric[] = [];
  const result = (status: ScenarioResult['status']): ScenarioResult => ({
    id: 'watch',
    title: WATCH_TITLE,
    status,
    notes: [...new Set(notes)],
    metrics,
    details,
  });

  const project = await createBenchProject(ROWS);
  try {
    // Cache the responses of both prompt variants, so every rerun below is fully cached.
    context.server.latencyMs = 0;
    for (const variant of ['b', 'a'] as const) {
      await project.writePrompt(variant);
      const populate = await measureNode(
        [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet'],
        { cwd: project.dir, env: cliEnv(context.server), timeoutMs: 60_000 },
      );
      if (populate.code !== 0) {
        notes.push(`populating the cache failed: exit ${populate.code}: ${populate.stderr.trim().split('\n')[0] ?? ''}`);
        return result('failed');
      }
    }

    const pipe = await measureMode(context, project, runs, 'pipe', notes, details);
    if (pipe === 'unavailable') return result('unavailable');
    metrics.push(...pipe);
    if (spawnSync('script', ['--version']).status === 0) {
      const tty = await measureMode(context, project, runs, 'tty', notes, details);
      if (tty !== 'unavailable') metrics.push(...tty);
    } else {
      notes.push('no `script` (util-linux) on PATH: the terminal figures are left out');
    }
    const measured = metrics.filter((m) => m.name === 'save → block end' || m.name === 'tty: save → screen shows run');
    const ok = notes.length === 0 && measured.every((m) => m.samples.length === runs);
    return result(ok ? 'ok' : 'failed');
  } finally {
    await project.cleanup();
  }
}

/** One watch session with stdout on a pipe or on a terminal: `runs` saves, each timed to its rerun on screen. */
async function measureMode(
  context: BenchContext,
  project: BenchProject,
  runs: number,
  mode: Mode,
  notes: string[],
  details: ScenarioResult['details'],
): Promise<Metric[] | 'unavailable'> {
  const prefix = mode === 'tty' ? 'tty: ' : '';
  await project.writePrompt('a');
  context.server.reset();
  const session = mode === 'pipe' ? startPiped(context, project) : startOnTerminal(context, project);
  try {
    const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<boolean> => {
      const deadline = performance.now() + timeoutMs;
      while (!condition()) {
        if (session.exited() !== undefined || performance.now() > deadline) return false;
        await sleep(2);
      }
      return true;
    };

    const sawFirst = await waitFor(() => session.shown.length > 0, FIRST_BLOCK_TIMEOUT_MS);
    if (!sawFirst) {
      const exited = session.exited();
      if (exited === undefined) {
        notes.push(`${prefix}no run shown within ${FIRST_BLOCK_TIMEOUT_MS / 1000} s; output: ${JSON.stringify(session.output().slice(0, 200))}`);
        return [];
      }
      const stderr = session.stderr() || session.output();
      const message = stderr.trim().split('\n')[0] ?? '';
      notes.push(`${prefix}\`agentmark watch\` exited with ${exited.code ?? exited.signal} before its first block: ${message || '(no message)'}`);
      // A watch command that does not exist yet is "unavailable"; one that crashes is a failure.
      return /not available|unknown command/i.test(stderr) || exited.code === 2 ? 'unavailable' : [];
    }

    const toShown: number[] = [];
    const toEnd: number[] = [];
    let extraReruns = 0;
    for (let i = 0; i < runs; i += 1) {
      await sleep(SETTLE_MS);
      const before = session.shown.length;
      const start = performance.now();
      await project.writePrompt(i % 2 === 0 ? 'b' : 'a');
      const seen = await waitFor(() => session.shown.length > before, RERUN_TIMEOUT_MS);
      if (!seen) {
        notes.push(`${prefix}rerun ${i + 1}: no new run shown within ${RERUN_TIMEOUT_MS / 1000} s of writing the prompt`);
        break;
      }
      await sleep(SETTLE_MS);
      const shown = session.shown[before];
      if (shown === undefined) break;
      toShown.push(shown.at - start);
      toEnd.push(session.lastChunkAt() - start);
      extraReruns += session.shown.length - before - 1;
      context.log(`  ${prefix}rerun ${i + 1}/${runs}: shown ${(shown.at - start).toFixed(0)} ms, output end ${(session.lastChunkAt() - start).toFixed(0)} ms`);
    }
    if (extraReruns > 0) notes.push(`${prefix}${extraReruns} extra reruns for ${runs} single saves (debounce)`);

    const metrics: Metric[] = [];
    if (mode === 'pipe') {
      // The watcher's idle CPU: 2 s with nothing changing (on the terminal, `script` is the child).
      const idle = await idleCpuPercent(session.child.pid, 2000);
      if (toEnd.length > 0) {
        metrics.push(metric('save → block end', 'ms', toEnd, { target: TARGET }));
        metrics.push(metric('save → block header', 'ms', toShown));
      }
      if (idle !== undefined) metrics.push(metric('idle CPU % (2 s)', 'count', [idle]));
    } else if (toShown.length > 0) {
      metrics.push(metric('tty: save → screen shows run', 'ms', toShown, { target: TARGET }));
      metrics.push(metric('tty: save → output end', 'ms', toEnd));
    }
    const modelCalls = context.server.requests;
    if (modelCalls !== 0) notes.push(`${prefix}watch made ${modelCalls} model calls; every rerun should be cached`);
    details[`${mode}ModelCalls`] = modelCalls;
    details[`${mode}ExtraReruns`] = extraReruns;

    session.stop();
    const stopped = await Promise.race([session.exit.then(() => true), sleep(5000).then(() => false)]);
    if (!stopped) notes.push(`${prefix}watch did not exit within 5 s of ${mode === 'pipe' ? 'SIGINT' : 'q'}`);
    else details[`${mode}Exit`] = String(session.exited()?.code ?? session.exited()?.signal);
    return metrics;
  } finally {
    if (session.child.exitCode === null && session.child.signalCode === null) session.child.kill('SIGKILL');
  }
}

/** `agentmark watch` with stdout on a pipe: a rerun is shown when its block's header line arrives. */
function startPiped(context: BenchContext, project: BenchProject): Session {
  const child = spawn(process.execPath, [context.bin, 'watch', project.promptPath], {
    cwd: project.dir,
    env: cliEnv(context.server),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let pending = '';
  return observe(child, (chunk, at, shown) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = HEADER.exec(line);
      if (match?.[2] !== undefined) shown.push({ at, runId: match[2] });
    }
  }, () => child.kill('SIGINT'));
}

/**
 * `agentmark watch` on a pseudo-terminal (util-linux `script`, 120 × 40): a rerun is shown when
 * a whole redraw (it ends with the status line) shows the new run id and nothing running.
 */
function startOnTerminal(context: BenchContext, project: BenchProject): Session {
  const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols 120 rows 40 && exec ${[process.execPath, context.bin, 'watch', project.promptPath].map(quote).join(' ')}`;
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: project.dir,
    env: { ...cliEnv(context.server), TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let lastRunId: string | undefined;
  return observe(child, (chunk, at, shown) => {
    screen += chunk;
    const cleared = screen.lastIndexOf(CLEAR);
    if (cleared > 0) screen = screen.slice(cleared);
    const whole = /\r\n\r\n[a-z][^\r\n]*\r\n$/.test(screen);
    if (!whole || screen.includes('running…')) return;
    const runId = /── .+ · run (\S+)\r\n/.exec(screen)?.[1];
    if (runId !== undefined && runId !== lastRunId) {
      lastRunId = runId;
      shown.push({ at, runId });
    }
  }, () => void child.stdin.write('q'));
}

function observe(
  child: ChildProcessWithoutNullStreams,
  onChunk: (chunk: string, at: number, shown: Shown[]) => void,
  stop: () => void,
): Session {
  const shown: Shown[] = [];
  let lastChunkAt = 0;
  let output = '';
  let stderr = '';
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const at = performance.now();
    lastChunkAt = at;
    output += chunk;
    onChunk(chunk, at, shown);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  return {
    child,
    shown,
    lastChunkAt: () => lastChunkAt,
    output: () => output,
    stderr: () => stderr,
    exited: () => exited,
    exit,
    stop,
  };
}

/** CPU used by a process over `ms`, as a percentage of one core, from /proc (undefined elsewhere). */
async function idleCpuPercent(pid: number | undefined, ms: number): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const ticks = (): number | undefined => {
    try {
      // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  };
  const before = ticks();
  await sleep(ms);
  const after = ticks();
  if (before === undefined || after === undefined) return undefined;
  // Linux reports in clock ticks of 1/100 s.
  return Math.round((((after - before) * 10) / ms) * 1000) / 10;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
