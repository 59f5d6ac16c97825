import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { blobHashesOf } from '../run-blobs.js';
import { appendAnnotations, readAnnotations } from '../../review/annotations-file.js';
import type { AnnotationLine } from '../../review/types.js';
import type { RowResult } from '../../experiment/types.js';
import { writeFileAtomic } from '../atomic-write.js';
import { BlobStore } from '../blob-store.js';
import { checkResults } from '../results-integrity.js';
import type { RowIndex } from '../row-index-types.js';
import { MANIFEST_FILE, RESULTS_FILE, manifestText, type RunHandle } from '../run-handle.js';
import { RunStore } from '../run-store.js';
import { scanResults } from '../scan-results.js';
import { storeWriteError } from '../write-error.js';
import { checkStoredResults, openRunFolder, type StoredLine } from '../stored-run.js';
import type { RunQuery, RunStorage } from '../storage.js';
import type { ManifestPatch, ResultsIntegrity, RunManifest } from '../types.js';
import { readViewIndex } from '../view-index-reader.js';
import { readViewIndexJson } from '../view-index-json.js';
import { gapError, matchesQuery } from '../run-query.js';
import { wholeLines } from './whole-lines.js';
import { wholeLineBatches, type LineBatch } from '../line-batch.js';
import { lockLocalGroup } from './local-group-lock.js';
import { replaceResults } from './replace-results.js';

/** A run this process writes: its handle (holding the run's lock) and how many lines its file has. */
interface Writing {
  handle: RunHandle;
  rows: number;
}

/**
 * Today's back end, unchanged: `.agentmark/runs/<id>/` folders (manifest, results.jsonl, view
 * index, annotations.jsonl) and `.agentmark/blobs/`, through RunStore, BlobStore and the
 * annotations file. A run written through `appendRows` keeps its lock until `complete` or `close`.
 */
export class LocalStorage implements RunStorage {
  readonly kind = 'local' as const;
  readonly store: RunStore;
  readonly blobs: BlobStore;
  readonly #writing = new Map<string, Writing>();

  constructor(projectRoot: string, options: { runsDir?: string; blobsDir?: string } = {}) {
    this.store = new RunStore(projectRoot, options.runsDir);
    this.blobs = new BlobStore(projectRoot, options.blobsDir);
  }

  get location(): string {
    return this.store.runsDir;
  }

  async listRuns(query: RunQuery = {}): Promise<RunManifest[]> {
    const found: RunManifest[] = [];
    for (const manifest of await this.store.list()) {
      if (found.length >= (query.limit ?? Infinity)) break;
      if (matchesQuery(manifest, query)) found.push(manifest);
    }
    return found;
  }

  async getRun(id: string): Promise<RunManifest | undefined> {
    const writing = this.#writing.get(id);
    if (writing !== undefined) return writing.handle.manifest;
    return this.store.manifest(id).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'USAGE_UNKNOWN_RUN') return undefined;
      throw error;
    });
  }

  async createRun(manifest: RunManifest): Promise<void> {
    this.#writing.set(manifest.id, { handle: await this.store.create(manifest), rows: 0 });
  }

  async updateRun(id: string, patch: ManifestPatch): Promise<RunManifest> {
    const writing = this.#writing.get(id);
    if (writing !== undefined) return writing.handle.updateManifest(patch);
    const next: RunManifest = { ...(await this.store.manifest(id)), ...patch, id };
    const path = join(this.store.runDir(id), MANIFEST_FILE);
    await writeFileAtomic(path, manifestText(next)).catch((error: unknown) => {
      throw storeWriteError(error, path);
    });
    return next;
  }

  /** A local run's writer is known alive by its lock (withLiveStatus): nothing to record. */
  async touchRun(_id: string): Promise<void> {}

  /** The run's folder (rows, manifest, view index, labels), then its blobs no other run refers to. */
  async removeRun(id: string): Promise<boolean> {
    const manifest = await this.getRun(id);
    if (manifest === undefined) return false;
    await this.#writing.get(id)?.handle.close();
    this.#writing.delete(id);
    await this.store.remove(id);
    const hashes = blobHashesOf(manifest);
    if (hashes.length > 0) {
      const kept = new Set((await this.store.list()).flatMap(blobHashesOf));
      for (const hash of hashes) if (!kept.has(hash)) await rm(this.blobs.path(hash), { force: true });
    }
    return true;
  }

  async listShards(group: string): Promise<RunManifest[]> {
    return (await this.store.list()).filter((manifest) => manifest.shard?.group === group);
  }

  async mergedRunOf(group: string): Promise<RunManifest | undefined> {
    return (await this.store.list()).find((manifest) => manifest.merged?.group === group);
  }

  lockShardGroup(group: string): Promise<() => Promise<void>> {
    return lockLocalGroup(this.store.runsDir, group);
  }

  async #writer(id: string): Promise<Writing> {
    let writing = this.#writing.get(id);
    if (writing === undefined) {
      const opened = await this.store.open(id);
      writing = { handle: opened.handle, rows: opened.rowCount };
      this.#writing.set(id, writing);
    }
    return writing;
  }

  async appendRows(id: string, from: number, lines: readonly string[]): Promise<number> {
    const writing = await this.#writer(id);
    if (from > writing.rows) throw gapError(id, from, writing.rows);
    const fresh = lines.slice(writing.rows - from);
    // RunHandle writes JSON.stringify of the row: the same text as a line the runner wrote.
    for (const line of fresh) writing.handle.append(JSON.parse(line) as RowResult);
    await writing.handle.written();
    writing.rows += fresh.length;
    return fresh.length;
  }

  async rowCount(id: string): Promise<number> {
    return (await this.integrityOf(id)).rows;
  }

  async *readLines(id: string, from = 0): AsyncGenerator<string> {
    await this.store.manifest(id);
    yield* wholeLines(join(this.store.runDir(id), RESULTS_FILE), from);
  }

  async *readLineBatches(id: string, from = 0): AsyncGenerator<LineBatch> {
    await this.store.manifest(id);
    yield* wholeLineBatches(join(this.store.runDir(id), RESULTS_FILE), from);
  }

  async *readRows(id: string): AsyncGenerator<StoredLine> {
    await this.store.manifest(id);
    const run = await openRunFolder(this.store.runDir(id));
    yield* run.linesInOrder?.() ?? [];
  }

  async integrityOf(id: string): Promise<ResultsIntegrity> {
    const writing = this.#writing.get(id);
    const integrity = writing?.handle.integrity();
    if (integrity !== undefined) return integrity;
    await this.store.manifest(id);
    const { rows, sha256 } = await scanResults(join(this.store.runDir(id), RESULTS_FILE));
    return { rows, sha256 };
  }

  async complete(id: string, patch: ManifestPatch & { integrity: ResultsIntegrity }): Promise<RunManifest> {
    const writing = await this.#writer(id);
    const found = writing.handle.integrity();
    const dir = this.store.runDir(id);
    const expected = { ...writing.handle.manifest, integrity: patch.integrity };
    checkResults(dir, join(dir, RESULTS_FILE), expected, { ...(found ?? { rows: -1, sha256: '' }), missing: false, torn: found === undefined });
    const manifest = await writing.handle.updateManifest(patch);
    this.#writing.delete(id);
    await writing.handle.close();
    return manifest;
  }

  async checkRun(id: string): Promise<void> {
    const manifest = await this.store.manifest(id);
    await checkStoredResults(this.store.runDir(id), manifest);
  }

  /** Whether the run's results file is still what `integrity` records (hashed whole: a local copy's check before `runs pull` trusts it). */
  async resultsMatch(id: string, integrity: ResultsIntegrity): Promise<boolean> {
    await this.store.manifest(id);
    const found = await scanResults(join(this.store.runDir(id), RESULTS_FILE));
    return !found.missing && !found.torn && found.rows === integrity.rows && found.sha256 === integrity.sha256;
  }

  /** A completed copy found damaged, its results replaced by `lines` that match `integrity` (replace-results.ts). */
  async replaceResults(id: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity): Promise<void> {
    await this.store.manifest(id);
    await replaceResults(this.store.runDir(id), id, lines, integrity);
  }

  async viewColumns(id: string): Promise<RowIndex | undefined> {
    const dir = this.store.runDir(id);
    const manifest = await this.store.manifest(id);
    if (manifest.integrity === undefined) return undefined;
    const index = await readViewIndex(dir, { resultsPath: join(dir, RESULTS_FILE), integrity: manifest.integrity });
    return index?.columns;
  }

  async viewColumnsJson(id: string): Promise<string | undefined> {
    const dir = this.store.runDir(id);
    const manifest = await this.store.manifest(id);
    if (manifest.integrity === undefined) return undefined;
    return readViewIndexJson(dir, { resultsPath: join(dir, RESULTS_FILE), integrity: manifest.integrity });
  }

  putBlob(text: string): Promise<string> {
    return this.blobs.put(text);
  }

  getBlob(hash: string): Promise<string> {
    return this.blobs.get(hash);
  }

  async appendAnnotations(id: string, lines: readonly AnnotationLine[]): Promise<void> {
    await this.store.manifest(id);
    await appendAnnotations(this.store.runDir(id), lines);
  }

  async readAnnotations(id: string): Promise<AnnotationLine[]> {
    await this.store.manifest(id);
    return readAnnotations(this.store.runDir(id));
  }

  async close(): Promise<void> {
    const writing = [...this.#writing.values()];
    this.#writing.clear();
    for (const { handle } of writing) await handle.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
