import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyFixture } from '../helpers/temp-project.js';
import { startOpenAIServer, type OpenAIServer, type OpenAIServerOptions } from '../helpers/openai-server.js';
import { BIN } from '../helpers/run-cli.js';

/** Generous: the CI machine has two cores and runs test files side by side. */
export const WAIT_MS = 30_000;

export interface WatchProcess {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the output once `check` holds for it (tested on every chunk, no sleeps). */
  waitFor(check: (stdout: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface WatchProject {
  dir: string;
  server: OpenAIServer;
  start(args?: string[]): WatchProcess;
  /** Stops the process (if still running), the server and removes the folder. */
  cleanup(): Promise<void>;
}

/** A temporary copy of test/fixtures/watch (or `fixture`), a loopback OpenAI server, and the built CLI in watch mode. */
export async function watchProject(options: OpenAIServerOptions = {}, fixture = 'watch'): Promise<WatchProject> {
  const project = await copyFixture(fixture);
  const server = await startOpenAIServer(options);
  const started: WatchProcess[] = [];
  return {
    dir: project.dir,
    server,
    start(args = ['watch', 'prompts']) {
      const process = spawnWatch(args, project.dir, server.url);
      started.push(process);
      return process;
    },
    async cleanup() {
      for (const each of started) {
        if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
        await each.exited;
      }
      await server.close();
      await project.cleanup();
    },
  };
}

function spawnWatch(args: string[], cwd: string, baseURL: string): WatchProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'test' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      resolve({ code, signal });
      for (const waiter of waiters) waiter();
    });
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of waiters) waiter();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitFor(check, what, timeoutMs = WAIT_MS) {
      return new Promise((resolve, reject) => {
        const done = (): void => {
          waiters.delete(test);
          clearTimeout(timer);
        };
        const test = (): void => {
          if (check(stdout)) {
            done();
            resolve(stdout);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`exited before ${what}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${what}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
  };
}

/** How many times `text` occurs in `haystack`. */
export function count(haystack: string, text: string): number {
  return haystack.split(text).length - 1;
}

export const ALPHA = '── prompts/alpha.prompt.mdx · run ';
export const BETA = '── prompts/beta.prompt.mdx · run ';
export const READY = 'watching ';

/** Resolves once `marker` has appeared `times` more times after `from` characters of output. */
export function blocksAfter(from: number, marker: string, times = 1): (stdout: string) => boolean {
  return (stdout) => count(stdout.slice(from), marker) >= times;
}

/** Rewrites a file of the project in place, as an editor's save does. */
export async function edit(dir: string, file: string, change: (text: string) => string): Promise<void> {
  const path = join(dir, file);
  await writeFile(path, change(await readFile(path, 'utf8')));
}

/** For state that prints nothing (the fake server's counters): checks every 20 ms until it holds. */
export async function until(check: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a process with this id still exists. */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
