import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS_FILE, isValidRunId, type ChangeCursor, type ChangedRun, type RunStorage } from '../store/index.js';
import type { ResultsIntegrity, RunManifest } from '../store/types.js';
import type { StoreRun, StoreRuns } from '../view/run-catalog.js';
import { appendStoreLines, copiedChange, copiedManifest, finishCopy, startCopy, writeCopiedManifest, type RunCopy } from './run-copy.js';
import { pushCopyLabels, writeStoreLabels } from './copy-labels.js';
import { keepViewIndex } from './keep-view-index.js';
import { BackgroundCopies } from './background-copies.js';
import { copyCompletedRun, OneAtATime } from './snapshot-copy.js';
import { openStoreRun } from './store-run-reader.js';

/** At most one look at the store's list of runs per this many milliseconds, however many pages ask. */
const LIST_EVERY_MS = 1000;
/**
 * A completed run with more rows than this is copied in the background: the server answers (and
 * lists the runs copied) meanwhile, and lists this one once its copy is whole. A copy of
 * 1,000,000 rows takes tens of seconds; a request should not wait for it.
 */
const AWAITED_ROWS = 100_000;

/**
 * The team store's runs as run folders the viewer reads (`.agentmark/serve-mirror/`), so `serve`
 * shows a database's runs through the same routes as a folder's.
 *
 * A completed run whose view index the store keeps (pushed with it, migration 30) is not copied:
 * its folder gets its manifest and labels, and the viewer reads its index and its rows from the
 * store a page at a time (StoreRuns, store-run-reader.ts), so a 1,000,000-row run opens without
 * being read whole. Its results are copied only when a route reads the run whole (compare, grid,
 * agreement: `whole`).
 *
 * Any other completed run (pushed before the store kept indexes, or through `serve`) is copied
 * once, into a folder of its own that replaces the copy whole (a large one in the background,
 * listed once it is whole), with the store's lines in their stored order and its manifest,
 * integrity record included: the viewer checks the copy against that record as it checks any
 * finished run, so a row changed in the database is a 409, never served. The view index written
 * with the copy is then kept in the store, for every later server.
 *
 * A run still `running` (rows streaming in from `run-experiment`) is copied where it is and
 * followed: each sync appends the lines stored since, which the viewer's live events send to
 * open pages, and its end makes it completed.
 *
 * What changed is found by the store's change numbers (`runsChangedAfter`): a sync asks for the
 * runs changed since the last one it saw, one query, plus one look at each running run's new
 * rows; an idle server over 10,000 runs asks one question a second. A run deleted from the store
 * goes from here (its folder removed: not listed, 404), and a completed run whose rows changed
 * since its copy (a repair by `runs push`, an edit) is copied again, in one snapshot of the store
 * (`readSnapshot`), so a copy never mixes rows from before and after a repair.
 */
export class StoreMirror implements StoreRuns {
  readonly runsDir: string;
  #listed = 0;
  #syncing: Promise<void> | undefined;
  readonly #copies = new Map<string, RunCopy>();
  #timer: NodeJS.Timeout | undefined;
  #stale = false;
  /** Large completed runs being copied (or waiting to be) while the server answers. */
  readonly #background = new BackgroundCopies();
  readonly #snapshots = new OneAtATime();
  /** Where the store's changes were last read up to (undefined: not yet, the first sync sees every run). */
  #cursor: ChangeCursor | undefined;
  /** Runs that could not be synced at their change: tried again at each sync until they are. */
  readonly #retry = new Map<string, Change>();
  /** Completed runs read from the store (their index kept there), at which change, and the copies made of them for whole reads. */
  readonly #fromStore = new Map<string, { manifest: RunManifest; change?: number; whole?: Promise<void> }>();
  /** By run: a number changed whenever what serves it changes (copied again, read from the store, deleted), for the viewer's cache. */
  readonly #stamps = new Map<string, number>();
  #stamped = 0;
  /** By run: how many times it was dropped (deleted from the store), so a copy under way then is not put in place. */
  readonly #drops = new Map<string, number>();

  constructor(private readonly storage: RunStorage, projectRoot: string, private readonly now: () => number = Date.now) {
    const key = createHash('sha256').update(storage.location).digest('hex').slice(0, 16);
    this.runsDir = join(projectRoot, '.agentmark', 'serve-mirror', key, 'runs');
  }

  serves(id: string): boolean {
    return this.#fromStore.has(id);
  }

  stamp(id: string): number | undefined {
    return this.#stamps.get(id);
  }

  #restamp(id: string): void {
    this.#stamps.set(id, ++this.#stamped);
  }

  async open(id: string, manifest: RunManifest): Promise<StoreRun | undefined> {
    if (!this.#fromStore.has(id)) return undefined;
    return openStoreRun(this.storage, manifest);
  }

  /** Copies the run's results into its folder once (the folder keeps being read from the store meanwhile). */
  whole(id: string): Promise<void> {
    const served = this.#fromStore.get(id);
    if (served === undefined) return Promise.resolve();
    served.whole ??= this.#copyRun(served.manifest).catch((error: unknown) => {
      served.whole = undefined;
      throw error;
    });
    return served.whole;
  }

  /** The store changed through this server (a push): the next request looks at it again at once. */
  changed(): void {
    this.#stale = true;
  }

  /** Syncs every `LIST_EVERY_MS` until `stop`, a failure only waiting for the next turn. */
  start(): void {
    this.#timer ??= setInterval(() => void this.syncRuns().catch(() => undefined), LIST_EVERY_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const copy of this.#copies.values()) copy.lock?.release();
  }

  /** Copies the runs not copied yet (or whose manifest changed in the store), and the new lines of running ones. */
  syncRuns(): Promise<void> {
    // A look already under way may have missed the change: one more after it.
    if (this.#syncing) return this.#stale ? this.#syncing.then(() => this.syncRuns()) : this.#syncing;
    if (!this.#stale && this.#listed !== 0 && this.now() - this.#listed < LIST_EVERY_MS) return Promise.resolve();
    this.#stale = false;
    this.#syncing = this.#syncRuns().finally(() => {
      this.#listed = this.now();
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  async #syncRuns(): Promise<void> {
    await mkdir(this.runsDir, { recursive: true });
    const first = this.#cursor === undefined;
    const { runs: changed, deleted } = await this.#changes();
    // Deleted first: a run deleted and made again under its id is then copied afresh below.
    for (const id of deleted) await this.#drop(id);
    if (first && this.storage.runsChangedAfter !== undefined) await this.#dropOthers(new Set(changed.map((run) => run.manifest.id)));
    for (const run of changed) {
      // One run that cannot be synced now (its copy locked by another server in this folder, a
      // damaged line) must not keep the others from being served: the next sync tries it again.
      this.#retry.delete(run.manifest.id);
      await this.#syncRun(run).catch(() => this.#retry.set(run.manifest.id, run));
    }
    // Running runs' rows arrive without their manifest changing: each followed run is looked at,
    // its status read again (a writer gone silent makes it `abandoned` with no change to the run).
    const seen = new Set(changed.map((run) => run.manifest.id));
    for (const copy of [...this.#copies.values()]) {
      if (seen.has(copy.manifest.id)) continue;
      const manifest = this.storage.runsChangedAfter === undefined ? copy.manifest : ((await this.storage.getRun(copy.manifest.id).catch(() => undefined)) ?? copy.manifest);
      await this.#follow(manifest, copy).catch(() => undefined);
    }
  }

  /** The runs changed since the last sync, with those to try again, and the runs deleted; every run when the store keeps no change numbers. */
  async #changes(): Promise<{ runs: Change[]; deleted: string[] }> {
    const retry = [...this.#retry.values()];
    if (this.storage.runsChangedAfter === undefined) {
      const runs = await this.storage.listRuns();
      const there = new Set(runs.map((manifest) => manifest.id));
      return { runs: runs.map((manifest) => ({ manifest })), deleted: (await this.#folders()).filter((id) => !there.has(id)) };
    }
    const { runs, deleted, next } = await this.storage.runsChangedAfter(this.#cursor);
    this.#cursor = next;
    const changed = new Set(runs.map((run) => run.manifest.id));
    const gone = new Set(deleted);
    return { runs: [...retry.filter((run) => !changed.has(run.manifest.id) && !gone.has(run.manifest.id)), ...runs], deleted };
  }

  /** The run ids with a folder here. */
  async #folders(): Promise<string[]> {
    return (await readdir(this.runsDir).catch(() => [])).filter((name) => isValidRunId(name));
  }

  /** Folders left here by an earlier server of runs the store no longer has (deleted while no server followed it). */
  async #dropOthers(there: ReadonlySet<string>): Promise<void> {
    for (const id of await this.#folders()) if (!there.has(id)) await this.#drop(id);
  }

  /** A run deleted from the store: forgotten here, its folder removed (the viewer no longer lists it, and answers 404). */
  async #drop(id: string): Promise<void> {
    this.#drops.set(id, (this.#drops.get(id) ?? 0) + 1);
    this.#retry.delete(id);
    this.#fromStore.delete(id);
    const copy = this.#copies.get(id);
    this.#copies.delete(id);
    copy?.lock?.release();
    copy?.index.abandon();
    this.#restamp(id);
    await rm(join(this.runsDir, id), { recursive: true, force: true });
  }

  async #syncRun({ manifest, viewIndex, change }: Change): Promise<void> {
    const following = this.#copies.get(manifest.id);
    // A followed run that ended any way (completed, or failed, interrupted) is brought up to its end.
    if (following) return this.#follow(manifest, following);
    // An abandoned run (its writer killed) is copied as far as it got and shown as such.
    if (manifest.status !== 'completed' && manifest.status !== 'running' && manifest.status !== 'abandoned') return;
    const dir = join(this.runsDir, manifest.id);
    const copied = await copiedManifest(dir);
    if (manifest.status === 'completed' && viewIndex !== undefined && sameRecord(manifest.integrity, viewIndex)) return this.#readFromStore(manifest, dir, copied, change);
    // Its index is gone (a row edited, or repaired without one): the run is copied, and its copy
    // checked against its record as any finished run's is; a change since (a repair) copies it again.
    const fromStore = this.#fromStore.delete(manifest.id);
    if (!fromStore && copied === JSON.stringify(manifest) && !(await this.#rowsChanged(dir, change))) return;
    if (manifest.status === 'completed' && (manifest.integrity?.rows ?? 0) > AWAITED_ROWS) return this.#background.add(manifest.id, () => this.#copyRun(manifest));
    if (manifest.status === 'completed') return this.#copyRun(manifest);
    return this.#follow(manifest, await this.#startFollowing(manifest, dir));
  }

  /** Whether the store's run changed since its rows were copied here (not known for an older serve's copy: taken as not). */
  async #rowsChanged(dir: string, change: number | undefined): Promise<boolean> {
    const at = change === undefined ? undefined : await copiedChange(dir);
    return at !== undefined && change !== undefined && change > at;
  }

  /** A folder holding the run's manifest and labels, its rows read from the store when asked for. */
  async #readFromStore(manifest: RunManifest, dir: string, copied: string | undefined, change: number | undefined): Promise<void> {
    const text = JSON.stringify(manifest);
    const known = this.#fromStore.get(manifest.id);
    if (copied !== text) {
      await mkdir(dir, { recursive: true });
      await writeStoreLabels(this.storage, manifest.id, dir);
      // The results of an earlier copy (another manifest) no longer describe the run.
      await rm(join(dir, RESULTS_FILE), { force: true });
      await writeCopiedManifest(dir, manifest);
    }
    // A copy made for whole reads before a change to its rows is made again when next asked for.
    const same = known !== undefined && copied === text && (change === undefined || known.change === undefined || change <= known.change);
    if (!same) this.#restamp(manifest.id);
    this.#fromStore.set(manifest.id, same ? known : { manifest, ...(change === undefined ? {} : { change }) });
  }

  /** Resolves once the large copies queued so far are done (or failed). */
  settled(): Promise<void> {
    return this.#background.settled();
  }

  /** A copy of a running run, followed by each sync until it ends. */
  async #startFollowing(manifest: RunManifest, dir: string): Promise<RunCopy> {
    const copy = await startCopy(this.storage, manifest, dir, true);
    this.#copies.set(manifest.id, copy);
    return copy;
  }

  /** Appends the lines stored since the last look; the store's manifest goes on top once they are written. */
  async #follow(manifest: RunManifest, copy: RunCopy): Promise<void> {
    const dir = join(this.runsDir, manifest.id);
    copy.manifest = manifest;
    await appendStoreLines(this.storage, manifest.id, dir, copy);
    await writeCopiedManifest(dir, manifest);
    if (manifest.status === 'running') return;
    finishCopy(copy);
    this.#copies.delete(manifest.id);
    // A run streamed into the store has no index there: the one this copy wrote serves the next servers.
    if (manifest.status === 'completed') await keepViewIndex(this.storage, join(this.runsDir, manifest.id), manifest);
  }

  /** A completed run copied whole beside the old copy (in one snapshot: snapshot-copy.ts), which it then replaces. */
  async #copyRun(given: RunManifest): Promise<void> {
    const temp = join(this.runsDir, `.${given.id}.copying`);
    const drops = this.#drops.get(given.id);
    const manifest = await copyCompletedRun(this.storage, given, temp, this.#snapshots);
    // Deleted meanwhile (the cursor says so at the next sync), or no longer completed.
    if (manifest === undefined) return;
    // Dropped while it was copied (a large copy in the background, deleted from the store meanwhile): not put back.
    if (this.#drops.get(given.id) !== drops) return void (await rm(temp, { recursive: true, force: true }));
    await rm(join(this.runsDir, manifest.id), { recursive: true, force: true });
    await rename(temp, join(this.runsDir, manifest.id));
    // A run read from the store is served from there still (this copy is for whole reads).
    if (this.#fromStore.has(manifest.id)) return;
    this.#restamp(manifest.id);
    await keepViewIndex(this.storage, join(this.runsDir, manifest.id), manifest);
  }

  /** The copy's labels made the store's again; returns how many the store has. */
  syncLabels(id: string): Promise<number> {
    return writeStoreLabels(this.storage, id, join(this.runsDir, id));
  }

  /** Sends the store the labels the viewer appended to the copy after the first `known`. */
  pushLabels(id: string, known: number): Promise<void> {
    return pushCopyLabels(this.storage, id, join(this.runsDir, id), known);
  }
}

/** A run as the store's change cursor gives it (its change number unknown when the store keeps none). */
type Change = Omit<ChangedRun, 'change'> & { change?: number };

function sameRecord(a: ResultsIntegrity | undefined, b: ResultsIntegrity): boolean {
  return a !== undefined && a.rows === b.rows && a.sha256 === b.sha256;
}
