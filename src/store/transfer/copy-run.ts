import { UsageError } from '../../errors/index.js';
import { RunStoreError } from '../store-error.js';
import type { RunStorage } from '../storage.js';
import type { ResultsIntegrity, RunManifest } from '../types.js';
import { copyBlobs } from './copy-blobs.js';
import { sendBatches, sendsBatches } from './send-batches.js';

/** Lines sent in one `appendRows`: one statement of ~3 MB for 300-byte rows, memory stays flat. */
export const COPY_BATCH = 10_000;

export interface CopyResult {
  id: string;
  /** Rows the run has. */
  rows: number;
  /** Rows sent now (fewer than `rows` when an earlier, killed copy had sent some). */
  sent: number;
  /** The run was already there, whole: nothing was sent. */
  already: boolean;
  /** An unfinished copy there did not match this run (damaged): it was removed and the run sent whole. */
  replaced?: boolean;
  /** A finished copy there with this run's record had other rows (edited in the table): its rows were replaced by this run's. */
  repaired?: boolean;
}

export interface CopyOptions {
  /** After each batch lands: how many of the run's rows the target holds. */
  onProgress?: (stored: number, total: number) => void;
}

/**
 * Copies a finished run from one store to another (`runs push`: local to the team store; `runs
 * pull`: back). Safe to repeat and to run twice at once: the run is created `running`, its rows
 * go from where the target's stop (a copy killed with -9 goes on from there), each line stored
 * once at its place, and it becomes `completed` (or its own final status) only when the target's
 * rows match the integrity record. The source is read once: its lines are checked against its
 * record where they land (the target's completion), and only when that fails is the source itself
 * checked, so a damaged source run is refused with its own integrity error and what this copy
 * created of it is removed. A different run already there under the id is STORE_RUN_CONFLICT. An
 * unfinished copy there whose lines turn out not to be this run's is replaced (`replaced`).
 */
export async function copyRun(from: RunStorage, to: RunStorage, id: string, options: CopyOptions = {}, again = false): Promise<CopyResult> {
  const manifest = await from.getRun(id);
  if (manifest === undefined) throw new UsageError('USAGE_UNKNOWN_RUN', `unknown run "${id}" in ${from.location}`);
  if (manifest.status === 'running' || manifest.status === 'abandoned') throw unfinished(manifest, from);
  const integrity: ResultsIntegrity = manifest.integrity ?? (await from.integrityOf(id));
  const there = await to.getRun(id);
  // A copy left unfinished there (a push or a streamed run killed, `abandoned`) goes on from where it stops.
  if (there !== undefined && there.status !== 'running' && there.status !== 'abandoned') {
    if (sameIntegrity(there.integrity, integrity)) return alreadyThere(from, to, manifest, integrity);
    throw new RunStoreError('STORE_RUN_CONFLICT', `run ${id} is already in ${to.location} with other rows (${there.integrity?.rows ?? '?'} rows there, ${integrity.rows} here)`, {
      hint: 'a run id names one run: this is another run under the same id; remove one of them',
    });
  }
  let created = false;
  if (there === undefined) {
    try {
      await to.createRun({ ...manifest, status: 'running' });
      created = true;
    } catch (error) {
      // Another copy of the same run created it meanwhile: go on beside it.
      if ((error as { code?: string }).code !== 'STORE_RUN_EXISTS') throw error;
    }
  }
  try {
    return await sendRun(from, to, manifest, integrity, options, again);
  } catch (error) {
    // A damaged source is named as such (the local file, not the store), and leaves nothing of it behind.
    try {
      await from.checkRun(id);
    } catch (damaged) {
      if (created) await to.removeRun(id).catch(() => undefined);
      throw damaged;
    }
    throw error;
  }
}

/** Sends the run's lines from where the target's stop, its blobs and labels, and completes it there. */
async function sendRun(from: RunStorage, to: RunStorage, manifest: RunManifest, integrity: ResultsIntegrity, options: CopyOptions, again: boolean): Promise<CopyResult> {
  const id = manifest.id;
  const start = await to.rowCount(id);
  // Bytes from the results file straight into the database's COPY where both ends can (a local run pushed to PostgreSQL).
  const onSent = (held: number): void => options.onProgress?.(held, integrity.rows);
  const stored = sendsBatches(from, to) ? await sendBatches(from, to, id, start, onSent) : await sendLines(from, to, id, start, onSent);
  await copyBlobs(from, to, manifest);
  if ((await to.readAnnotations(id)).length === 0) {
    const labels = await from.readAnnotations(id);
    if (labels.length > 0) await to.appendAnnotations(id, labels);
  }
  await copyViewColumns(from, to, id, integrity);
  const { id: _id, ...rest } = manifest;
  try {
    await to.complete(id, { ...rest, integrity });
  } catch (error) {
    // The lines found there were not all this run's: either the source is damaged (named by the
    // caller's check) or an unfinished copy was damaged in the table. The latter is removed with its
    // rows, labels and blobs, and the run sent whole, once.
    const code = (error as { code?: string }).code ?? '';
    if (again || start === 0 || !(code.startsWith('STORE_RESULTS_') || code === 'STORE_DUPLICATE_ROW')) throw error;
    await from.checkRun(id);
    await to.removeRun(id);
    return { ...(await copyRun(from, to, id, options, true)), replaced: true };
  }
  return { id, rows: integrity.rows, sent: stored - start, already: false };
}

/** Sends the run's lines from place `start` on as strings (either end lacks the batches of bytes); returns how many the target holds after. */
async function sendLines(from: RunStorage, to: RunStorage, id: string, start: number, onSent: (stored: number) => void): Promise<number> {
  let stored = start;
  // One batch in flight while the next is read: the reading and the database's loading overlap.
  let inFlight: Promise<void> = Promise.resolve();
  let batch: string[] = [];
  const send = async (): Promise<void> => {
    await inFlight;
    const lines = batch;
    batch = [];
    inFlight = to.appendRows(id, stored, lines).then(() => {
      stored += lines.length;
      onSent(stored);
    });
    // A failed batch fails the copy as soon as it is awaited; never an unhandled rejection meanwhile.
    inFlight.catch(() => undefined);
  };
  // The lines an earlier copy stored are read too when the target can take them as noted (no
  // sending): its completion then checks every line where it is stored, without a read-back.
  const note = to.noteStoredLines?.bind(to);
  let place = note === undefined ? start : 0;
  let noted: string[] = [];
  for await (const line of from.readLines(id, place)) {
    if (note !== undefined && place < start) {
      noted.push(line);
      place += 1;
      if (noted.length >= COPY_BATCH || place === start) {
        note(id, place - noted.length, noted);
        noted = [];
      }
      continue;
    }
    place += 1;
    batch.push(line);
    if (batch.length >= COPY_BATCH) await send();
  }
  if (batch.length > 0) await send();
  await inFlight;
  return stored;
}

/**
 * A finished copy there with this run's record (`already in`): its blobs the target lacks are sent
 * (a run streamed by an older agentmark had none), and its stored rows are checked against the
 * source's lines where they are (the database hashes them by ranges: no read-back). Rows that
 * differ (edited in the table) are replaced in one transaction, its manifest and labels kept, and
 * its view index put back; a damaged source is refused with its own error, the copy left as it is.
 * A target that cannot check so (the local folder, a server) is taken at its record: a command
 * reading the local copy checks it there (`runs pull` checks it at once: pull-run.ts).
 */
async function alreadyThere(from: RunStorage, to: RunStorage, manifest: RunManifest, integrity: ResultsIntegrity): Promise<CopyResult> {
  const id = manifest.id;
  const already: CopyResult = { id, rows: integrity.rows, sent: 0, already: true };
  if (to.storedLinesMatch === undefined || to.replaceLines === undefined) return already;
  await copyBlobs(from, to, manifest);
  if (await to.storedLinesMatch(id, from.readLines(id), integrity)) return already;
  await from.checkRun(id);
  // The index goes in with the rows, one commit: serve never sees the repaired run without it.
  const columns = to.putViewColumns === undefined ? undefined : await viewColumnsText(from, id, integrity);
  await to.replaceLines(id, from.readLines(id), integrity, columns);
  return { id, rows: integrity.rows, sent: integrity.rows, already: false, repaired: true };
}

/** STORE_RUN_NOT_FINISHED: a run still written, or whose writer is gone without finishing it. */
export function unfinished(manifest: RunManifest, from: RunStorage): RunStoreError {
  const resume = `agentmark run-experiment ${manifest.prompt.path} --resume ${manifest.id}`;
  if (manifest.status === 'abandoned') {
    return new RunStoreError('STORE_RUN_NOT_FINISHED', `run ${manifest.id} is abandoned in ${from.location}: its writer stopped without finishing it (last heard from ${manifest.heartbeatAt ?? 'long ago'})`, {
      hint: `continue it on the machine that ran it (${'`'}${resume}${'`'}), or push it from there once it finished (${'`'}agentmark runs push ${manifest.id}${'`'})`,
    });
  }
  return new RunStoreError('STORE_RUN_NOT_FINISHED', `run ${manifest.id} is still running (or was killed): only a finished run is copied`, {
    hint: `finish it first (${'`'}${resume}${'`'}), then push it`,
  });
}

function sameIntegrity(a: ResultsIntegrity | undefined, b: ResultsIntegrity): boolean {
  return a !== undefined && a.rows === b.rows && a.sha256 === b.sha256;
}

/**
 * The run's view index, when the source has one for these rows and the target keeps them: `serve`
 * then opens the run from the store a page at a time, without reading it whole. Stored before the
 * run completes; it describes the rows by their integrity record, which `complete` checks. No index
 * (an older run) costs nothing here: `serve` makes one when it first copies the run.
 */
async function copyViewColumns(from: RunStorage, to: RunStorage, id: string, integrity: ResultsIntegrity): Promise<void> {
  if (to.putViewColumns === undefined) return;
  const text = await viewColumnsText(from, id, integrity);
  if (text !== undefined) await to.putViewColumns(id, text, integrity);
}

/** The source's view index of the run as JSON text, when it has one for these rows. */
function viewColumnsText(from: RunStorage, id: string, integrity: ResultsIntegrity): Promise<string | undefined> {
  return from.viewColumnsJson
    ? from.viewColumnsJson(id).catch(() => undefined)
    : from.viewColumns(id).then((columns) => (columns !== undefined && columns.index.length === integrity.rows ? JSON.stringify(columns) : undefined), () => undefined);
}
