import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS_FILE, RunStore, checkResults, checkStoredResults, isValidRunId, readViewIndex, resumeCommandOf, withLiveStatus } from '../store/index.js';
import type { RunManifest } from '../store/types.js';
import type { FlipsResponse, RunListItem, RunResponse } from './api-types.js';
import { flippedRows, verdictsByRow } from './flips.js';
import { RunIndex, type RowSource } from './run-index.js';
import { loadRunPrompt, type RunPrompt } from './row-messages.js';

/**
 * Runs whose rows are in a team store rather than in their folder here (`agentmark serve`): a
 * completed run with a view index kept in the store is opened from it, its rows read a page at a
 * time; the folder holds its manifest and labels, and its results only once a route that reads
 * the run whole (compare, grid, agreement) asked for them (`whole`).
 */
export interface StoreRuns {
  /** The run's view index and rows from the store, or undefined: its folder here has its rows. */
  open(id: string, manifest: RunManifest): Promise<StoreRun | undefined>;
  /** True when `open` gave this run (its folder may hold no results). */
  serves(id: string): boolean;
  /** Changes whenever what serves the run changes (copied again, read from the store, deleted): what was opened of it before is not used again. */
  stamp(id: string): number | undefined;
  /** Brings the run's results into its folder (a copy from the store), for a route that reads it whole. */
  whole(id: string): Promise<void>;
}

export interface StoreRun extends RowSource {
  /** The run's view index (RowIndex) as JSON text. */
  columnsJson: string;
  /** Throws STORE_RESULTS_MISMATCH once the run's rows in the store are not the ones checked. */
  check(): Promise<void>;
}

/** A run the viewer has opened: its index (kept up to date) and its prompt for rendering rows. */
interface OpenRun {
  index: RunIndex;
  /** The run's rows are read from the team store (`StoreRuns`). */
  fromStore?: StoreRun;
  /** Row verdicts of this finished run, for flips of the runs after it. */
  verdicts?: ReturnType<typeof verdictsByRow>;
  prompt?: Promise<RunPrompt>;
  /** The store's stamp of the run when it was opened (StoreRuns.stamp). */
  stamp?: number;
}

/** A check of a run's results file whole, for the file as it was (inode, size, times) when it began. */
interface WholeCheck {
  file: string;
  done: Promise<void>;
}

export function listItem(manifest: RunManifest): RunListItem {
  const summary = manifest.summary;
  return {
    id: manifest.id,
    promptName: manifest.prompt.name,
    promptPath: manifest.prompt.path,
    model: manifest.model,
    ...(manifest.dataset ? { datasetPath: manifest.dataset.path } : {}),
    status: manifest.status,
    startedAt: manifest.startedAt,
    ...(manifest.endedAt ? { endedAt: manifest.endedAt } : {}),
    ...(manifest.git ? { gitCommit: manifest.git.commit } : {}),
    ...(summary
      ? { rows: summary.rows, errored: summary.errored, passed: summary.passed, ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }) }
      : {}),
    ...resumeOf(manifest),
    evals: (summary?.evals ?? []).map(({ name, passRate, passRateCi95, meanScore, passedCount, verdictCount }) => ({
      name,
      passedCount,
      verdictCount,
      ...(passRate === undefined ? {} : { passRate }),
      ...(passRateCi95 === undefined ? {} : { passRateCi95 }),
      ...(meanScore === undefined ? {} : { meanScore }),
    })),
  };
}

function resumeOf(manifest: RunManifest): { resume?: string } {
  return manifest.status === 'interrupted' ? { resume: resumeCommandOf(manifest) } : {};
}

/**
 * The runs folder as the viewer sees it. A run id from a request is used only when it is a
 * valid id AND one of the folders actually listed, so no request can name a path.
 */
export class RunCatalog {
  readonly store: RunStore;
  readonly #open = new Map<string, OpenRun>();
  readonly #checks = new Map<string, WholeCheck>();

  constructor(readonly projectRoot: string, runsDir?: string, readonly storeRuns?: StoreRuns) {
    this.store = new RunStore(projectRoot, runsDir);
  }

  /** The run's folder with its results in it, for a route that reads the run whole. */
  async folder(id: string): Promise<string> {
    if (this.storeRuns?.serves(id) === true) await this.storeRuns.whole(id);
    return this.store.runDir(id);
  }

  async list(): Promise<RunListItem[]> {
    return (await this.store.list()).map(listItem);
  }

  /** True when `id` names an existing run folder. */
  async exists(id: string): Promise<boolean> {
    return isValidRunId(id) && (await this.store.ids()).includes(id);
  }

  async manifest(id: string): Promise<RunManifest | undefined> {
    if (!(await this.exists(id))) return undefined;
    try {
      // A run whose process was killed shows as interrupted, not as running for ever.
      return withLiveStatus(this.store.runDir(id), await this.store.manifest(id));
    } catch {
      return undefined;
    }
  }

  /**
   * The run's index, read up to the current end of its results file. A finished run's file is
   * checked against what its manifest records: a damaged or missing one is a RunStoreError
   * (STORE_RESULTS_MISMATCH / STORE_RESULTS_MISSING), never rows silently left out.
   */
  async index(id: string, manifest: RunManifest): Promise<RunIndex> {
    let open = this.#opened(id);
    const path = join(this.store.runDir(id), RESULTS_FILE);
    if (!open && manifest.status === 'completed' && manifest.integrity !== undefined && this.storeRuns) {
      const fromStore = await this.storeRuns.open(id, manifest);
      if (fromStore) {
        const evalNames = manifest.summary?.evals.map((e) => e.name) ?? [];
        const index = new RunIndex(path, evalNames);
        index.readFrom(fromStore.columnsJson, evalNames, fromStore, manifest.integrity);
        open = this.#open.get(id) ?? { index, fromStore, ...this.#stampOf(id) };
        this.#open.set(id, open);
      }
    }
    if (open?.fromStore) {
      // The store's rows are checked as they are read, not by hashing a file here.
      await open.fromStore.check();
      return open.index;
    }
    if (!open) {
      const names = manifest.summary?.evals.map((e) => e.name);
      const index = new RunIndex(path, names, liveRanges(manifest));
      // A finished run opens from the index written with its rows, without parsing them.
      const stored = names === undefined ? undefined : await readViewIndex(this.store.runDir(id), { resultsPath: path, evalNames: names, ...(manifest.integrity ? { integrity: manifest.integrity } : {}) });
      if (stored) index.adopt(stored);
      open = this.#open.get(id) ?? { index, ...this.#stampOf(id) };
      this.#open.set(id, open);
    }
    await open.index.refresh();
    if (manifest.integrity !== undefined || manifest.status === 'completed') checkResults(this.store.runDir(id), path, manifest, open.index.found());
    if (manifest.integrity !== undefined) await this.#checkWhole(id, manifest);
    return open.index;
  }

  /** What was opened of the run, unless the team store's copy of it changed since (then it is opened again). */
  #opened(id: string): OpenRun | undefined {
    const open = this.#open.get(id);
    if (open === undefined || open.stamp === this.storeRuns?.stamp(id)) return open;
    this.#open.delete(id);
    return undefined;
  }

  #stampOf(id: string): { stamp?: number } {
    const stamp = this.storeRuns?.stamp(id);
    return stamp === undefined ? {} : { stamp };
  }

  /**
   * A finished run's results checked whole, as every command checks them (checkStoredResults):
   * the rows counted above come from the view index or from lines read once, so a line edited in
   * place (a verdict flipped, lines reordered, the same size) would otherwise be served as the
   * run. One check per state of the file, shared by the requests that wait for it, and made again
   * whenever the file is not the one checked. It costs a read of the file (about 1 s for 1,000,000
   * rows), so it starts as soon as the run is asked for (`run`), before the page asks for rows.
   */
  #checkWhole(id: string, manifest: RunManifest): Promise<void> {
    const dir = this.store.runDir(id);
    return stat(join(dir, RESULTS_FILE)).then(
      (file) => this.#checkOnce(id, dir, manifest, `${file.ino}:${file.size}:${file.mtimeMs}:${file.ctimeMs}`),
      () => this.#checkOnce(id, dir, manifest, 'missing'),
    );
  }

  #checkOnce(id: string, dir: string, manifest: RunManifest, file: string): Promise<void> {
    const last = this.#checks.get(id);
    if (last?.file === file) return last.done;
    const done = checkStoredResults(dir, manifest).then(() => undefined);
    // A failed check stays the answer until the file changes; nobody may be waiting for it yet.
    done.catch(() => undefined);
    this.#checks.set(id, { file, done });
    return done;
  }

  /** Loaded once per run and kept: the prompt file's hash decides whether it can be used. */
  prompt(id: string, manifest: RunManifest): Promise<RunPrompt> {
    const open = this.#opened(id);
    if (!open) return loadRunPrompt(this.projectRoot, manifest);
    open.prompt ??= loadRunPrompt(this.projectRoot, manifest);
    return open.prompt;
  }

  async run(id: string): Promise<RunResponse | undefined> {
    const manifest = await this.manifest(id);
    if (!manifest) return undefined;
    // A finished run's summary has all the page's header needs: its rows need not be read yet.
    if (manifest.integrity !== undefined && this.storeRuns?.serves(id) !== true) this.#checkWhole(id, manifest).catch(() => undefined);
    if (manifest.summary) return { manifest, evalNames: manifest.summary.evals.map((e) => e.name), rowCount: manifest.summary.rows, ...resumeOf(manifest) };
    const index = await this.index(id, manifest);
    return runResponse(manifest, index);
  }

  /** Rows of `id` that flipped since the previous run of its prompt (computed here, not in the page). */
  async flips(id: string, manifest: RunManifest): Promise<FlipsResponse> {
    const { previous, empty } = await this.previous(manifest);
    const current = await this.index(id, manifest);
    const before = previous === undefined ? undefined : await this.manifest(previous);
    if (previous === undefined || !before) return { previous: null, flips: [], ...(empty.length > 0 ? { nothingToCompare: nothingToCompare(empty) } : {}) };
    const index = await this.index(previous, before);
    const open = this.#open.get(previous) as OpenRun;
    // A finished run's verdicts never change: made once, however often a live page asks.
    const verdicts = before.summary ? (open.verdicts ??= verdictsByRow(index.columns)) : verdictsByRow(index.columns);
    return flippedRows(previous, verdicts, current.columns);
  }

  /**
   * The run of the same prompt and model just before this one (what a watch rerun follows), whose
   * rows the run page marks as flipped against. Ids sort by start time. A run with no row (one
   * interrupted before its first row finished) is passed over: against it nothing could flip,
   * and "0 rows flipped" would claim a comparison; `empty` lists those passed over.
   */
  async previous(manifest: RunManifest): Promise<{ previous: string | undefined; empty: RunManifest[] }> {
    const empty: RunManifest[] = [];
    for (const id of await this.store.ids()) {
      if (id >= manifest.id) continue;
      const other = await this.manifest(id);
      if (other?.prompt.path !== manifest.prompt.path || other.model !== manifest.model) continue;
      if ((await this.index(id, other)).count > 0) return { previous: id, empty };
      empty.push(other);
    }
    return { previous: undefined, empty };
  }
}

export function runResponse(manifest: RunManifest, index: RunIndex): RunResponse {
  return {
    manifest,
    evalNames: manifest.summary?.evals.map((e) => e.name) ?? index.evalNames,
    rowCount: index.count,
    ...(manifest.summary ? {} : { live: index.liveSummary() }),
    ...resumeOf(manifest),
  };
}

/** Why the run page compares with no earlier run: each earlier run of the prompt had no row. */
function nothingToCompare(empty: readonly RunManifest[]): string {
  const [latest] = empty;
  const what = (m: RunManifest): string => `${m.id} (${m.status}, no row recorded)`;
  return empty.length === 1
    ? `nothing to compare with: the previous run of this prompt, ${what(latest as RunManifest)}, has no rows`
    : `nothing to compare with: the ${empty.length} earlier runs of this prompt have no rows (the latest: ${what(latest as RunManifest)})`;
}

/** A running run's score ranges, from its manifest options (anything malformed is left out). */
function liveRanges(manifest: RunManifest): Map<string, readonly [number, number]> {
  const ranges = new Map<string, readonly [number, number]>();
  const recorded = manifest.options.scoreRanges;
  if (typeof recorded !== 'object' || recorded === null) return ranges;
  for (const [name, range] of Object.entries(recorded)) {
    if (Array.isArray(range) && range.length === 2 && range.every((v) => typeof v === 'number' && Number.isFinite(v))) ranges.set(name, [range[0], range[1]]);
  }
  return ranges;
}
