import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { OutStream } from './io.js';

export interface ReportOutput {
  stream: OutStream;
  close(): void;
}

/** stdout, or the `--output` file (created or truncated up front, written as the report grows). */
export function openReportOutput(path: string | undefined, cwd: string, stdout: OutStream): ReportOutput {
  if (path === undefined) return { stream: stdout, close: () => {} };
  const absolute = resolve(cwd, path);
  let fd: number;
  try {
    fd = openSync(absolute, 'w');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError('USAGE_BAD_OUTPUT', `--output ${path}: cannot write this file (${reason})`);
  }
  return {
    stream: { write: (text: string) => writeSync(fd, text) },
    close: () => closeSync(fd),
  };
}
