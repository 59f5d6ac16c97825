/**
 * Runs a child process and measures it from the outside: wall time from spawn to exit (taken in
 * this process), and peak resident memory from the operating system — GNU `/usr/bin/time`'s
 * maximum RSS when it is installed, else /proc/<pid>/status VmHWM polled every 10 ms (which can
 * miss a final spike, so it is marked as polled).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface ChildRun {
  /** `performance.now()` just before the spawn. */
  startedAt: number;
  wallMs: number;
  /** Peak resident set size in MB, when the OS could tell. */
  peakRssMb: number | undefined;
  /** CPU time (user + system) of the child in ms, when GNU time measured it: far steadier than the wall on a loaded machine. */
  cpuMs?: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export type RssMethod = 'gnu-time' | 'proc-vmhwm' | 'none';

const TIME_BIN = '/usr/bin/time';

function detectRssMethod(): RssMethod {
  try {
    accessSync(TIME_BIN, constants.X_OK);
    return 'gnu-time';
  } catch {
    // fall through
  }
  try {
    accessSync('/proc/self/status', constants.R_OK);
    return 'proc-vmhwm';
  } catch {
    return 'none';
  }
}

export const rssMethod: RssMethod = detectRssMethod();

/** Runs `node <args>` (the same Node binary as the bench) and measures it. */
export async function measureNode(args: string[], options: ChildOptions): Promise<ChildRun> {
  const scratch = await mkdtemp(join(tmpdir(), 'agentmark-bench-time-'));
  const timeFile = join(scratch, 'time.txt');
  const useTime = rssMethod === 'gnu-time';
  const command = useTime ? TIME_BIN : process.execPath;
  const argv = useTime ? ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...args] : args;
  try {
    let stdout = '';
    let stderr = '';
    let polledKb = 0;
    let timedOut = false;
    const start = performance.now();
    const child = spawn(command, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const poll =
      rssMethod === 'proc-vmhwm'
        ? setInterval(() => {
            polledKb = Math.max(polledKb, readVmHwmKb(child.pid));
          }, 10)
        : undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
    });
    const wallMs = performance.now() - start;
    clearTimeout(timer);
    if (poll) clearInterval(poll);
    // Let the pipes drain after exit.
    await new Promise<void>((resolve) => (child.stdout.readableEnded ? resolve() : child.stdout.on('end', () => resolve())));
    let peakRssMb: number | undefined;
    let cpuMs: number | undefined;
    if (useTime) {
      const [kb, user, system] = ((await readFile(timeFile, 'utf8').catch(() => '')).trim().split('\n').pop() ?? '').split(/\s+/).map(Number);
      peakRssMb = kb !== undefined && Number.isFinite(kb) && kb > 0 ? kb / 1024 : undefined;
      if (user !== undefined && system !== undefined && Number.isFinite(user + system)) cpuMs = (user + system) * 1000;
      // GNU time reports the child's exit status through its own.
    } else if (polledKb > 0) {
      peakRssMb = polledKb / 1024;
    }
    return { startedAt: start, wallMs, peakRssMb, ...(cpuMs === undefined ? {} : { cpuMs }), code, signal, stdout, stderr, timedOut };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function readVmHwmKb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match?.[1] === undefined ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}
