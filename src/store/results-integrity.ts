import { createHash, type Hash } from 'node:crypto';
import { isAbandoned, resumeCommandOf } from './abandoned-run.js';
import { RunStoreError } from './store-error.js';
import type { ResultsIntegrity, RunManifest } from './types.js';

/**
 * The running count and sha256 of a results file's complete lines (each with its `\n`), fed as
 * the lines are written or read, so neither the writer nor a reader goes over the file twice.
 */
export class ResultsHash {
  #hash: Hash = createHash('sha256');
  #rows = 0;

  /** One or more whole lines, as bytes or text (text is hashed as its UTF-8). */
  update(lines: Buffer | string, rows: number): void {
    this.#hash.update(lines);
    this.#rows += rows;
  }

  /** A line read back: its text without the `\n`. Blank lines count for the hash, not as rows. */
  line(text: string): void {
    this.#hash.update(text);
    this.#hash.update('\n');
    if (text.trim() !== '') this.#rows += 1;
  }

  get rows(): number {
    return this.#rows;
  }

  /** The value so far; the hash goes on taking lines. */
  value(): ResultsIntegrity {
    return { rows: this.#rows, sha256: this.#hash.copy().digest('hex') };
  }
}

/** What a reader found in a results file. */
export interface FoundResults {
  rows: number;
  sha256: string;
  /** The file does not exist. */
  missing: boolean;
  /** Its last line has no newline: a write was cut off. */
  torn: boolean;
}

/**
 * Checks what a reader found against the manifest's record, and throws the typed error that
 * says what is wrong (exit 2): rows lost or added, lines changed, a missing file, or a torn last
 * line of a run that was killed. A run stored before the record existed is checked only where
 * nothing else can be meant (a torn line of an abandoned run, a missing file of a finished one).
 */
export function checkResults(dir: string, file: string, manifest: RunManifest, found: FoundResults): void {
  const expected = manifest.integrity;
  if (found.torn && expected === undefined && isAbandoned(dir, manifest)) throw interruptedError(file, manifest);
  if (expected === undefined) {
    const rows = manifest.status === 'completed' ? manifest.summary?.rows : undefined;
    if (found.missing && rows !== undefined && rows > 0) throw mismatch(file, manifest, rows, 'found none: the file is missing', 'STORE_RESULTS_MISSING');
    return;
  }
  if (found.missing && expected.rows > 0) throw mismatch(file, manifest, expected.rows, 'found none: the file is missing', 'STORE_RESULTS_MISSING');
  if (found.rows !== expected.rows) {
    const torn = found.torn ? ', and its last line is cut off' : '';
    throw mismatch(file, manifest, expected.rows, `found ${found.rows}${torn}`);
  }
  if (!found.missing && found.sha256 !== expected.sha256) {
    throw new RunStoreError('STORE_RESULTS_MISMATCH', `run ${manifest.id}: its results do not match its manifest: ${expected.rows} rows as recorded, but their content changed (sha256 ${found.sha256.slice(0, 12)}, recorded ${expected.sha256.slice(0, 12)})${found.torn ? '; its last line is cut off' : ''}`, {
      location: { file },
      hint: 'the results file was edited or damaged after the run ended; rerun it, or restore the file',
    });
  }
}

function mismatch(file: string, manifest: RunManifest, expected: number, found: string, code: `STORE_${string}` = 'STORE_RESULTS_MISMATCH'): RunStoreError {
  return new RunStoreError(code, `run ${manifest.id}: expected ${expected} result rows (as its manifest records), ${found}`, {
    location: { file },
    hint: 'the results file was truncated, replaced or damaged after the run ended; rerun the run, or restore the file',
  });
}

function interruptedError(file: string, manifest: RunManifest): RunStoreError {
  return new RunStoreError('STORE_RUN_INTERRUPTED', `run ${manifest.id} was interrupted (its last result line is cut off); \`--resume\` it: ${resumeCommandOf(manifest)}`, {
    location: { file },
    hint: 'the resume keeps the finished rows and runs the rest',
  });
}

/** A key seen twice in one run's results: two results for one row. */
export function duplicateRowError(file: string, manifest: RunManifest, index: number, repeat: number): RunStoreError {
  return new RunStoreError('STORE_DUPLICATE_ROW', `run ${manifest.id}: row ${index}${repeat > 0 ? ` (repeat ${repeat})` : ''} appears twice in its results`, {
    location: { file },
    hint: 'the results file was edited or two processes wrote the run; remove the extra line or rerun the run',
  });
}
