import { basename } from 'node:path';
import { RunStoreError } from './store-error.js';

/** Errors of writing a file that are the machine's state, not a bug of ours, and what they mean. */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file would exceed the maximum file size of this process (`ulimit -f`)',
  EPERM: 'the operation is not permitted (a read-only or immutable file or folder)',
  EACCES: 'permission denied',
  EROFS: 'the file system is read-only',
};

/** The errno code of an error Node's fs threw, if it is one of the write failures above. */
export function writeFailureCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return code !== undefined && Object.hasOwn(CAUSES, code) ? code : undefined;
}

/**
 * A write failure as the typed error the CLI prints (exit 2): the file and the cause, with what
 * to do next. Anything else comes back unchanged (a bug of ours keeps its stack).
 * @param resume the command that continues the run, when there is one
 */
export function storeWriteError(error: unknown, file: string, resume?: string): unknown {
  if (error instanceof RunStoreError) return error;
  const code = writeFailureCode(error);
  if (code === undefined) return error;
  const fix = code === 'ENOSPC' || code === 'EDQUOT' ? 'free some space' : code === 'EFBIG' ? 'raise the limit (`ulimit -f unlimited`)' : 'make the folder writable';
  return new RunStoreError('STORE_WRITE_FAILED', `cannot write ${basename(file)}: ${CAUSES[code]} (${code})`, {
    location: { file },
    hint: resume === undefined ? `${fix}, then run again` : `${fix}, then continue the run: ${resume}`,
    cause: error,
  });
}

/**
 * A file of ours that could not be read for a reason of the machine's (permissions), as a typed
 * error naming it (exit 2); anything else comes back unchanged.
 */
export function storeReadError(error: unknown, file: string): unknown {
  if (error instanceof RunStoreError) return error;
  const code = writeFailureCode(error);
  if (code === undefined || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return error;
  return new RunStoreError('STORE_READ_FAILED', `cannot read ${basename(file)}: ${CAUSES[code]} (${code})`, {
    location: { file },
    hint: 'make it readable, then run again',
    cause: error,
  });
}
