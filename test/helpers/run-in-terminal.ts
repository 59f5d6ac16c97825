import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from './run-cli.js';

export interface TerminalOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The terminal's size, fixed so that output does not depend on the machine. @default 120 × 40 */
  columns?: number;
  rows?: number;
}

export interface TerminalProcess {
  /** `script`, which holds the pseudo-terminal; the CLI runs under it. */
  child: ChildProcessWithoutNullStreams;
  /** Everything the terminal showed so far (stdout and stderr, in the order they were written). */
  readonly output: string;
  /** Key presses, delivered through the terminal as a keyboard would. */
  type(keys: string): void;
  /** Resolves with the output once `check` holds for it (tested on every chunk, no sleeps). */
  waitFor(check: (output: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** The CLI's own exit code (`script -e` passes it on). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the built CLI on a real pseudo-terminal, through util-linux `script`: stdin, stdout and
 * stderr are all the terminal's, so `isTTY`, raw mode and redraws behave as for a user. Node
 * has no pty of its own, and `script` is in every Linux base system.
 */
export function runInTerminal(args: string[], options: TerminalOptions): TerminalProcess {
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('these tests need `script` from util-linux (a pseudo-terminal)');
  const command = [`stty cols ${options.columns ?? 120} rows ${options.rows ?? 40}`, `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`].join(
    ' && ',
  );
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TERM: 'xterm', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const waiter of waiters) waiter();
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      resolve({ code, signal });
      wake();
    });
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    wake();
  });
  return {
    child,
    get output() {
      return output;
    },
    type: (keys) => void child.stdin.write(keys),
    exited,
    waitFor(check, what, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const done = (): void => {
          waiters.delete(test);
          clearTimeout(timer);
        };
        const test = (): void => {
          if (check(output)) {
            done();
            resolve(output);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`exited before ${what}\n--- terminal\n${JSON.stringify(output)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${what}\n--- terminal\n${JSON.stringify(output)}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
  };
}
