import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowResult } from '../experiment/types.js';
import { UsageError, closestMatch } from '../errors/index.js';
import { writeFileAtomic } from './atomic-write.js';
import { dropRows } from './drop-rows.js';
import { dropTail, readResultsFile, readStoredRows } from './results-file.js';
import { MANIFEST_FILE, RESULTS_FILE, RunHandle, manifestText } from './run-handle.js';
import { isValidRunId } from './run-id.js';
import { LOCK_FILE, RunLock, lockedError, readLockHolder, type LockDeps } from './run-lock.js';
import { RowKeySet } from './row-key-set.js';
import { RowOffsets } from './row-offsets.js';
import { ResultsHash } from './results-integrity.js';
import { ViewIndexWriter } from './view-index-writer.js';
import { RunStoreError } from './store-error.js';
import { storeWriteError } from './write-error.js';
import { withLiveStatus } from './abandoned-run.js';
import type { OpenedRun } from './opened-run.js';
import type { RunManifest } from './types.js';
import { parseManifest } from './parse-manifest.js';

/** How many recent ids an unknown-run error lists. */
const RECENT_IDS_SHOWN = 5;

function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** The past and present runs of one project, one folder each under `.agentmark/runs/`. */
export class RunStore {
  readonly runsDir: string;
  readonly #lockDeps: LockDeps;

  /**
   * @param runsDir defaults to `<projectRoot>/.agentmark/runs`
   * @param lockDeps who this process is, for run locks (tests pose as other processes)
   */
  constructor(projectRoot: string, runsDir: string = join(projectRoot, '.agentmark', 'runs'), lockDeps: LockDeps = {}) {
    this.runsDir = runsDir;
    this.#lockDeps = lockDeps;
  }

  runDir(id: string): string {
    return join(this.runsDir, id);
  }

  /** Creates `<id>/` with its manifest and an empty results file, ready for appends. */
  async create(manifest: RunManifest): Promise<RunHandle> {
    if (!isValidRunId(manifest.id)) {
      throw new RunStoreError('STORE_BAD_RUN_ID', `"${manifest.id}" cannot be a run id`, {
        hint: 'use letters, digits, ".", "_" and "-" only',
      });
    }
    const dir = this.runDir(manifest.id);
    await mkdir(this.runsDir, { recursive: true }).catch((error: unknown) => {
      throw storeWriteError(error, this.runsDir);
    });
    try {
      // Not recursive: an existing folder means an id clash, which must not mix two runs.
      await mkdir(dir);
    } catch (error) {
      if (isErrnoCode(error, 'EEXIST')) {
        throw new RunStoreError('STORE_RUN_EXISTS', `run ${manifest.id} already exists`, {
          location: { file: dir },
          cause: error,
        });
      }
      throw storeWriteError(error, dir);
    }
    // Taken before anything is written, so a `--resume` of this id started meanwhile is refused.
    const lock = this.#lock(dir, manifest.id);
    try {
      const path = join(dir, MANIFEST_FILE);
      await writeFileAtomic(path, manifestText(manifest)).catch((error: unknown) => {
        throw storeWriteError(error, path);
      });
      return new RunHandle(dir, manifest, undefined, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** RunLock.acquire, with a write failure (a read-only folder) said as one. */
  #lock(dir: string, id: string): RunLock {
    try {
      return RunLock.acquire(dir, id, this.#lockDeps);
    } catch (error) {
      throw storeWriteError(error, join(dir, LOCK_FILE));
    }
  }

  /** Reads a run's manifest. Unknown id: UsageError USAGE_UNKNOWN_RUN. */
  async manifest(id: string): Promise<RunManifest> {
    // An id that could leave the runs folder is simply not a run.
    if (!isValidRunId(id)) throw await this.#unknownRun(id);
    const path = join(this.runDir(id), MANIFEST_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isErrnoCode(error, 'ENOENT') || isErrnoCode(error, 'ENOTDIR')) throw await this.#unknownRun(id);
      throw error;
    }
    try {
      return parseManifest(text);
    } catch (error) {
      throw new RunStoreError('STORE_BAD_MANIFEST', 'manifest is not valid JSON', { location: { file: path }, cause: error });
    }
  }

  /**
   * Reopens a run to continue it: takes its lock (STORE_RUN_LOCKED while another process
   * writes it), cuts off a torn last line so appends start on a clean line, and collects which
   * (index, repeat) rows are already done.
   */
  /**
   * @param options.drop rows to take out of the results file and run again (a `--batch` run's
   * rows whose job failed them); their keys come back in `dropped`
   */
  async open(id: string, options: { drop?: (row: RowResult) => boolean } = {}): Promise<OpenedRun> {
    await this.manifest(id);
    const dir = this.runDir(id);
    // Before reading what is done: a process that read it and then waited for the lock would
    // run rows the other process finished meanwhile.
    const lock = this.#lock(dir, id);
    try {
      return await this.#openLocked(id, dir, lock, options.drop);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  async #openLocked(id: string, dir: string, lock: RunLock, drop: ((row: RowResult) => boolean) | undefined): Promise<OpenedRun> {
    // Read again under the lock: the previous owner may have ended the run meanwhile.
    const manifest = await this.manifest(id);
    const resultsPath = join(dir, RESULTS_FILE);
    const dropped = drop === undefined ? new Set<string>() : await dropRows(resultsPath, drop).catch((error: unknown) => {
      if (isErrnoCode(error, 'ENOENT')) return new Set<string>();
      throw error;
    });
    const done = new RowKeySet();
    const offsets = new RowOffsets();
    const hash = new ResultsHash();
    // The viewer's index is written again from the rows read here; the resumed rows go on it.
    const index = new ViewIndexWriter(dir);
    let rowCount = 0;
    let validEnd = 0;
    try {
      for await (const { row, end } of readStoredRows(resultsPath, (text) => hash.line(text))) {
        done.add(row.index, row.repeat);
        // Lines are contiguous: each starts where the one before ended.
        offsets.add(row.index, row.repeat, validEnd, end - validEnd);
        index.add(row, validEnd, end - validEnd);
        rowCount += 1;
        validEnd = end;
      }
    } catch (error) {
      // A run killed before its first row may have no results file yet: nothing is done.
      if (!isErrnoCode(error, 'ENOENT')) {
        index.abandon();
        throw error;
      }
    }
    const droppedTornLine = await dropTail(resultsPath, validEnd).catch((error: unknown) => {
      if (isErrnoCode(error, 'ENOENT')) return false;
      throw error;
    });
    return {
      manifest,
      handle: new RunHandle(dir, manifest, { offsets, size: validEnd, hash, index }, lock),
      ...(lock.tookOverFrom ? { tookOverFrom: lock.tookOverFrom } : {}),
      done,
      rowCount,
      droppedTornLine,
      dropped,
      rows: () => readResultsFile(resultsPath),
    };
  }

  /** Streams a run's stored rows in file order (finish order), without loading the file. */
  async *readResults(id: string): AsyncGenerator<RowResult> {
    await this.manifest(id);
    try {
      yield* readResultsFile(join(this.runDir(id), RESULTS_FILE));
    } catch (error) {
      if (!isErrnoCode(error, 'ENOENT')) throw error;
    }
  }

  /** Run ids, newest first (ids start with their UTC start time). */
  async ids(): Promise<string[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.runsDir, { withFileTypes: true });
    } catch (error) {
      if (isErrnoCode(error, 'ENOENT')) return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.isDirectory() && isValidRunId(entry.name))
      .map((entry) => entry.name)
      .sort()
      .reverse();
  }

  /**
   * Manifests of past runs, newest first; folders without a readable manifest are skipped. A run
   * left `running` by a process that is gone shows as `interrupted` (see withLiveStatus).
   */
  async list(limit = Infinity): Promise<RunManifest[]> {
    const manifests: RunManifest[] = [];
    for (const id of await this.ids()) {
      if (manifests.length >= limit) break;
      try {
        const manifest = parseManifest(await readFile(join(this.runDir(id), MANIFEST_FILE), 'utf8'));
        manifests.push(withLiveStatus(this.runDir(id), manifest));
      } catch {
        // A folder from a run killed before its manifest was written, or not ours: not a run.
      }
    }
    return manifests;
  }

  /**
   * Deletes a run's folder (its manifest and results); never the response cache. A run whose
   * lock has a live holder is being written: STORE_RUN_LOCKED, nothing deleted.
   */
  async remove(id: string): Promise<void> {
    if (!isValidRunId(id)) throw await this.#unknownRun(id);
    const dir = this.runDir(id);
    const holder = readLockHolder(dir, this.#lockDeps.isAlive);
    if (holder?.alive === true) throw lockedError(id, join(dir, LOCK_FILE), holder.owner);
    await rm(dir, { recursive: true, force: true });
  }

  async #unknownRun(id: string): Promise<UsageError> {
    const ids = await this.ids();
    const recent = ids.slice(0, RECENT_IDS_SHOWN);
    const close = closestMatch(id, ids);
    const hints: string[] = [];
    if (close !== undefined) hints.push(`did you mean "${close}"?`);
    hints.push(recent.length > 0 ? `recent runs: ${recent.join(', ')}` : `no runs yet in ${this.runsDir}`);
    return new UsageError('USAGE_UNKNOWN_RUN', `unknown run "${id}"`, { hint: hints.join('; ') });
  }
}
