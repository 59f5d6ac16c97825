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
  const bad = (reason: string): UsageError => unwritable('--output', path, reason);
  assertWritableFile('--output', path, cwd);
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
/**
 * Throws USAGE_BAD_OUTPUT (exit 2, with a hint) when `path` (given as `flag`) cannot be written as
 * a file: its folder is missing, it is a folder, or it may not be written. Checked before any work.
 */
export function assertWritableFile(flag: string, path: string, cwd: string): void {
  const problem = whyNotWritable(resolve(cwd, path));
  if (problem !== undefined) throw unwritable(flag, path, problem);
}

const REASONS: Record<string, { what: string; hint: (path: string) => string }> = {
  ENOENT: { what: 'its folder does not exist', hint: (path) => `create ${dirname(path)} first, or give a path in an existing folder` },
  EISDIR: { what: 'it is a folder', hint: (path) => `give a file name, e.g. ${path.replace(/\/+$/, '')}/rows.jsonl` },
  ENOTDIR: { what: 'a part of the path is a file, not a folder', hint: () => 'check the path' },
  EACCES: { what: 'permission denied', hint: () => 'pick a path you may write, or change the permissions' },
  EPERM: { what: 'not permitted', hint: () => 'pick a path you may write, or change the permissions' },
  EROFS: { what: 'the file system is read-only', hint: () => 'pick a path on a writable file system' },
};

function unwritable(flag: string, path: string, code: string): UsageError {
  const reason = REASONS[code];
  return new UsageError('USAGE_BAD_OUTPUT', `${flag} ${path}: cannot write this file (${reason?.what ?? code})`, {
    hint: reason?.hint(path) ?? 'pick another path',
  });
}

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
