import { accessSync, closeSync, constants, openSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import { flushTurn, markDirty, PRIORITY, type TurnFile } from '../write-turn.js';
import type { OutStream } from './io.js';

/** Characters queued for the report file before the turn is written early. */
const FLUSH_AT = 1 << 20;

export interface ReportOutput {
  stream: OutStream;
  /** A run started: the `--output` file is created (or emptied) now, if nothing was written yet. */
  start(): void;
  close(): void;
}

/**
 * stdout, or the `--output` file, written as the report grows. The file is only opened (and
 * so truncated) once a run starts or the report writes: a command that stops on an input
 * error leaves an earlier report where it was. Whether it can be written is checked up
 * front, so a bad path is still an error before anything runs.
 */
export function openReportOutput(path: string | undefined, cwd: string, stdout: OutStream): ReportOutput {
  if (path === undefined) return { stream: stdout, start: () => {}, close: () => {} };
  const absolute = resolve(cwd, path);
  const bad = (reason: string): UsageError => new UsageError('USAGE_BAD_OUTPUT', `--output ${path}: cannot write this file (${reason})`);
  const problem = whyNotWritable(absolute);
  if (problem !== undefined) throw bad(problem);
  let fd: number | undefined;
  const open = (): number => {
    if (fd === undefined) {
      try {
        fd = openSync(absolute, 'w');
      } catch (error) {
        throw bad(codeOf(error));
      }
    }
    return fd;
  };
  // Written once per event-loop turn like the results (write-turn.ts); a failed write is thrown
  // by the next write or by close.
  let queued: string[] = [];
  let queuedLength = 0;
  let failed: UsageError | undefined;
  const file: TurnFile = {
    priority: PRIORITY.report,
    flush: () => {
      if (queued.length === 0 || fd === undefined) return;
      const text = queued.join('');
      queued = [];
      queuedLength = 0;
      try {
        writeSync(fd, text);
      } catch (error) {
        failed ??= bad(codeOf(error));
      }
    },
  };
  return {
    stream: {
      write: (text: string) => {
        if (failed) throw failed;
        open();
        queued.push(text);
        queuedLength += text.length;
        markDirty(file);
        // A report written from a stored run (json of 1,000,000 rows) can queue megabytes in
        // one turn: past 1 MB the turn is written now, in its usual order (results before report).
        if (queuedLength >= FLUSH_AT) flushTurn();
      },
    },
    start: () => void open(),
    close: () => {
      file.flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (failed) throw failed;
    },
  };
}

/** The error code opening `path` for writing would fail with (as far as can be told without opening it), or undefined. */
function whyNotWritable(path: string): string | undefined {
  try {
    const info = statSync(path);
    if (info.isDirectory()) return 'EISDIR';
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') return codeOf(error);
  }
  try {
    const folder = statSync(dirname(path));
    if (!folder.isDirectory()) return 'ENOTDIR';
    accessSync(dirname(path), constants.W_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    return codeOf(error);
  }
}

function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : String(error);
}
