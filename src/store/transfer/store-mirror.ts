import { dirname, join } from 'node:path';
import { AgentmarkError } from '../../errors/index.js';
import { BlobStore } from '../blob-store.js';
import { wholeLinesFrom } from '../local/whole-lines.js';
import { HEARTBEAT_EVERY_MS } from '../heartbeat.js';
import { openStorage } from '../open-storage.js';
import { RESULTS_FILE } from '../run-handle.js';
import type { RunStorage } from '../storage.js';
import type { ResultsIntegrity, RunManifest } from '../types.js';
import { readViewIndexJson } from '../view-index-json.js';
import { copyBlobs } from './copy-blobs.js';

/** How often rows written locally are sent on, while the run goes. */
const SYNC_EVERY_MS = 500;
/** Lines a sync sends at most in one statement. */
const BATCH = 5_000;
/** Waits between tries once the database stops answering: doubling up to the last. */
const BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000];
/** How long the end of a run waits for a database that is down before leaving it to `runs push`. */
const FINISH_PATIENCE_MS = 30_000;

export interface MirrorEnd {
  /** The run is completed (or its final status) in the store. */
  stored: boolean;
  /** Longest time the store was behind the local files because it could not be reached, in ms. */
  laggedMs: number;
}

export interface MirrorDeps {
  now?: () => number;
  /** Warnings for the run's output (one when the database cannot be reached at start). */
  warn: (message: string) => void;
}

/**
 * Streams a run's rows to the team store as the run writes them: the local results file stays
 * the journal, and every half second the lines past what the store holds are read from it and
 * sent (in order, each at its place, so a retry never doubles one). A lost connection is retried
 * with backoff while the run goes on locally; the rows catch up when the database is back. The run
 * shows `running` in the store until `finish` records its end, which the store accepts only when
 * its rows match the integrity record. Each batch, and a heartbeat every HEARTBEAT_EVERY_MS
 * without one, tell the store the writer is alive: killed, its run reads `abandoned` there.
 */
export class StoreMirror {
  readonly #storage: RunStorage;
  readonly #resultsPath: string;
  readonly #id: string;
  readonly #now: () => number;
  readonly #warn: (message: string) => void;
  #stored = 0;
  /** Where line `#stored` starts in the results file; 0 until the first batch from here (a resume skips the stored lines once). */
  #offset = 0;
  #timer: NodeJS.Timeout | undefined;
  #syncing: Promise<boolean> | undefined;
  #failures = 0;
  #retryAt = 0;
  #downSince: number | undefined;
  #laggedMs = 0;
  /** When the store last heard from this writer (a batch or a heartbeat), by `now`. */
  #heardAt = 0;

  private constructor(storage: RunStorage, runDir: string, id: string, deps: MirrorDeps) {
    this.#storage = storage;
    this.#resultsPath = join(runDir, RESULTS_FILE);
    this.#id = id;
    this.#now = deps.now ?? Date.now;
    this.#warn = deps.warn;
  }

  /**
   * Connects, records the run as `running` and sends the prompt files it was made from (its blobs,
   * as `runs push` does: a rerun from another clone needs them); undefined (after one warning) when the database
   * cannot be reached or refuses: the run then goes on locally, and `runs push` uploads it later.
   */
  static async start(url: string, projectRoot: string, runDir: string, manifest: RunManifest, deps: MirrorDeps): Promise<StoreMirror | undefined> {
    let storage: RunStorage | undefined;
    try {
      storage = await openStorage({ projectRoot, url });
      // A resumed run (abandoned there after a kill) is heard from again at once: `running` again.
      if ((await storage.getRun(manifest.id)) === undefined) await storage.createRun({ ...manifest, status: 'running' });
      else await storage.touchRun(manifest.id);
      // The prompt's files, as `runs push` sends them: another clone reruns the run from the store.
      const blobs = new BlobStore(projectRoot);
      await copyBlobs({ getBlob: (hash) => blobs.get(hash) }, storage, manifest);
      const mirror = new StoreMirror(storage, runDir, manifest.id, deps);
      mirror.#heardAt = mirror.#now();
      mirror.#stored = await storage.rowCount(manifest.id);
      mirror.#timer = setInterval(() => void mirror.sync(), SYNC_EVERY_MS);
      mirror.#timer.unref();
      return mirror;
    } catch (error) {
      await storage?.close().catch(() => undefined);
      // A typed store error's hint (a TLS setting to change, a server to start) goes with it: one warning.
      const hint = error instanceof AgentmarkError && error.hint !== undefined ? `\n  hint: ${error.hint}` : '';
      deps.warn(`the team store is not available (${(error as Error).message}): the run goes on locally; upload it later with \`agentmark runs push ${manifest.id}\`${hint}`);
      return undefined;
    }
  }

  /** Sends what the store lacks; false when the database did not answer (tried again later). */
  sync(): Promise<boolean> {
    this.#syncing ??= this.#send().finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  async #send(): Promise<boolean> {
    if (this.#now() < this.#retryAt) return false;
    try {
      // From where the last sync stopped: reading the whole file each half second is quadratic in a long run.
      let batch: string[] = [];
      let end = this.#offset;
      for await (const line of wholeLinesFrom(this.#resultsPath, this.#offset, this.#offset === 0 ? this.#stored : 0)) {
        batch.push(line.text);
        end = line.end;
        if (batch.length >= BATCH) batch = await this.#append(batch, end);
      }
      if (batch.length > 0) await this.#append(batch, end);
      // No rows for a while (slow model calls): the heartbeat alone says the writer is alive.
      if (this.#now() - this.#heardAt >= HEARTBEAT_EVERY_MS) {
        await this.#storage.touchRun(this.#id);
        this.#heardAt = this.#now();
      }
      if (this.#downSince !== undefined) this.#laggedMs = Math.max(this.#laggedMs, this.#now() - this.#downSince);
      this.#downSince = undefined;
      this.#failures = 0;
      return true;
    } catch {
      this.#downSince ??= this.#now();
      this.#retryAt = this.#now() + (BACKOFF_MS[Math.min(this.#failures, BACKOFF_MS.length - 1)] as number);
      this.#failures += 1;
      return false;
    }
  }

  async #append(batch: string[], end: number): Promise<string[]> {
    await this.#storage.appendRows(this.#id, this.#stored, batch);
    this.#stored += batch.length;
    this.#offset = end;
    this.#heardAt = this.#now();
    return [];
  }

  /**
   * After the run's final manifest is written locally: sends the last rows and records its end
   * (status, summary, integrity record). A database still down after FINISH_PATIENCE_MS leaves the
   * run `running` in the store, with a warning naming the push that completes it.
   */
  async finish(manifest: RunManifest): Promise<MirrorEnd> {
    clearInterval(this.#timer);
    const giveUpAt = this.#now() + FINISH_PATIENCE_MS;
    let stored = false;
    for (;;) {
      await this.#syncing;
      this.#retryAt = 0;
      if (await this.sync()) {
        try {
          const { id: _id, ...rest } = manifest;
          const integrity = manifest.integrity ?? (await this.#storage.integrityOf(this.#id));
          await this.#keepViewIndex(integrity);
          await this.#storage.complete(this.#id, { ...rest, integrity });
          stored = true;
          break;
        } catch (error) {
          if ((error as { code?: string }).code?.startsWith('STORE_RESULTS') === true) {
            this.#warn(`the team store's copy of run ${this.#id} does not match its results (${(error as Error).message}); push it again with \`agentmark runs push ${this.#id}\``);
            break;
          }
        }
      }
      if (this.#now() >= giveUpAt) {
        this.#warn(`the team store did not answer at the end of run ${this.#id}; it stays running there: upload it with \`agentmark runs push ${this.#id}\``);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[Math.min(this.#failures, BACKOFF_MS.length - 1)]));
    }
    if (this.#downSince !== undefined) this.#laggedMs = Math.max(this.#laggedMs, this.#now() - this.#downSince);
    await this.#storage.close().catch(() => undefined);
    return { stored, laggedMs: this.#laggedMs };
  }

  /**
   * The view index the run wrote beside its rows (finished before the run's end is recorded), kept
   * in the store as `runs push` keeps it, so `serve` opens the run from there without copying it.
   * Read from the index's column files, not the rows; stored before `complete`, which checks the
   * rows against the record the index names, and in the same change as the completion a server
   * following the store sees. No index for these rows (a torn write) costs nothing: serve copies.
   */
  async #keepViewIndex(integrity: ResultsIntegrity): Promise<void> {
    if (this.#storage.putViewColumns === undefined) return;
    const text = await readViewIndexJson(dirname(this.#resultsPath), { resultsPath: this.#resultsPath, integrity });
    if (text !== undefined) await this.#storage.putViewColumns(this.#id, text, integrity);
  }

  /** Stops sending (a run that failed before its end): what was sent stays, `running`. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#syncing;
    await this.#storage.close().catch(() => undefined);
  }
}
