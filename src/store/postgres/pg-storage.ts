import type { Pool, PoolClient } from 'pg';
import type { AnnotationLine } from '../../review/types.js';
import { maskUrl } from '../mask-url.js';
import { checkResults, duplicateRowError } from '../results-integrity.js';
import type { RowIndex } from '../row-index-types.js';
import { isValidRunId } from '../run-id.js';
import { RunStoreError } from '../store-error.js';
import type { StoredLine } from '../stored-run.js';
import type { ChangeCursor, RunQuery, RunStorage, StoreChanges } from '../storage.js';
import type { ManifestPatch, ResultsIntegrity, RunManifest } from '../types.js';
import { connectionError, createPool, inTransaction } from './pg-client.js';
import { checkAppend, duplicateKey, insertBatch, integrityOfRows, linesBySeq, linesInOrder, storedCount } from './pg-rows.js';
import { runColumns, selectLiveRun, selectRun, selectRuns, unknownRun, updateRunRow } from './pg-runs.js';
import { checkSchema, migrate } from './schema.js';
import { lockGroup, selectMerged, selectShards } from './pg-shard-groups.js';
import { readBackRows } from './pg-copy-lines.js';
import { GivenLines, keysOrNone } from './given-lines.js';
import { batchOfLines, type LineBatch } from '../line-batch.js';
import { lineKeys, type LineKeys } from '../line-keys.js';
import { storedRangesMatch, type RangeCheck } from './pg-range-check.js';
import { WrittenRows } from './written-rows.js';
import { linesAtPlaces, storeViewColumns, storedViewColumns, viewColumnsOf } from './pg-view-index.js';
import { runsChangedAfter } from './pg-changes.js';
import { readRunSnapshot } from './pg-snapshot-read.js';
import { getBlobRow, putBlobRow } from './pg-blobs.js';
import { replaceRows, storedLinesMatch } from './pg-stored-copy.js';
import { deleteRun } from './pg-remove-run.js';
import { insertAnnotations, selectAnnotations } from './pg-annotations.js';

/**
 * The PostgreSQL back end: runs, their rows (one table row per result line, keyed by its place in
 * finish order), blobs and label lines in the tables of migrations.ts. Every statement is
 * parameterised; nothing a user or a row holds is ever spliced into SQL.
 */
export class PgStorage implements RunStorage {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly pool: Pool;

  /** For connections outside the pool (a shard group's lock). */
  readonly #url: string;

  /** What the last `complete` found checking the rows where they are (undefined: it read them back instead); for tests. */
  lastRangeCheck: RangeCheck | undefined;

  /** By run: the lines this process gave the store from place 0 on, so `complete` checks the rows where they are. */
  readonly #given = new Map<string, GivenLines>();

  private constructor(pool: Pool, location: string, url: string) {
    this.pool = pool;
    this.location = location;
    this.#url = url;
  }

  /**
   * Connects and checks the schema (STORE_SCHEMA_OLD / STORE_SCHEMA_NEWER).
   * @param options.migrate apply missing migrations first (`agentmark store migrate`; the tests)
   */
  static async connect(url: string, options: { migrate?: boolean } = {}): Promise<PgStorage> {
    const pool = await createPool(url);
    const storage = new PgStorage(pool, maskUrl(url), url);
    try {
      if (options.migrate === true) await migrate(pool, storage.location);
      else await checkSchema(pool, storage.location);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw connectionError(error, url, storage.location);
    }
    return storage;
  }

  /** Where errors about run `id` point: the store, never its password. */
  #where(id: string): string {
    return `${this.location} (run ${id})`;
  }

  async #manifest(id: string): Promise<RunManifest> {
    const manifest = await selectRun(this.pool, id);
    if (manifest === undefined) throw await unknownRun(this.pool, id, this.location);
    return manifest;
  }

  listRuns(query: RunQuery = {}): Promise<RunManifest[]> {
    return selectRuns(this.pool, query);
  }

  getRun(id: string): Promise<RunManifest | undefined> {
    return selectLiveRun(this.pool, id);
  }

  async touchRun(id: string): Promise<void> {
    await this.pool.query('UPDATE agentmark_runs SET heartbeat_at = now() WHERE id = $1', [id]);
  }

  async createRun(manifest: RunManifest): Promise<void> {
    if (!isValidRunId(manifest.id)) {
      throw new RunStoreError('STORE_BAD_RUN_ID', `"${manifest.id}" cannot be a run id`, { hint: 'use letters, digits, ".", "_" and "-" only' });
    }
    const result = await this.pool.query(
      `INSERT INTO agentmark_runs (id, prompt_path, git_branch, git_commit, status, started_at, manifest)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
      runColumns(manifest),
    );
    if (result.rowCount === 0) throw new RunStoreError('STORE_RUN_EXISTS', `run ${manifest.id} already exists`, { location: { file: this.#where(manifest.id) } });
  }

  async updateRun(id: string, patch: ManifestPatch): Promise<RunManifest> {
    const next: RunManifest = { ...(await this.#manifest(id)), ...patch, id };
    await updateRunRow(this.pool, next);
    return next;
  }

  async removeRun(id: string): Promise<boolean> {
    this.#given.delete(id);
    return inTransaction(this.pool, (client) => deleteRun(client, id));
  }

  listShards(group: string): Promise<RunManifest[]> {
    return selectShards(this.pool, group);
  }

  mergedRunOf(group: string): Promise<RunManifest | undefined> {
    return selectMerged(this.pool, group);
  }

  lockShardGroup(group: string): Promise<() => Promise<void>> {
    return lockGroup(this.#url, group);
  }

  appendRows(id: string, from: number, lines: readonly string[]): Promise<number> {
    return this.appendLineBatch(id, batchOfLines(lines, from, this.#where(id)));
  }

  async appendLineBatch(id: string, batch: LineBatch): Promise<number> {
    const from = batch.first;
    // Read before the first round trip: a line that is not a result row sends nothing.
    const keys = lineKeys(batch);
    await checkAppend(this.pool, id, from, batch.count, this.location, this.#where(id));
    const written = new WrittenRows();
    const added = await insertBatch(this.pool, id, batch, keys, this.#where(id), written);
    this.#give(id, batch, keys, written);
    return added;
  }

  /**
   * Lines already stored at places `from`, `from + 1`, ... (by an earlier or a concurrent push),
   * given so that the completion checks them in the database with the rest; nothing is sent.
   */
  noteStoredLines(id: string, from: number, lines: readonly string[]): void {
    this.noteStoredBatch(id, batchOfLines(lines, from, this.#where(id)));
  }

  noteStoredBatch(id: string, batch: LineBatch): void {
    this.#give(id, batch, keysOrNone(batch));
  }

  /** Adds to the run's given lines; a run given lines out of order (or not result rows) is read back whole at its completion instead. */
  #give(id: string, batch: LineBatch, keys: LineKeys | undefined, written?: WrittenRows): void {
    if (batch.first === 0) this.#given.set(id, new GivenLines());
    const given = this.#given.get(id);
    if (given === undefined) return;
    if (given.next !== batch.first || keys === undefined) {
      this.#given.delete(id);
      return;
    }
    // A batch written here whole is checked by its rows' xmin: its ranges need no hash of their own.
    given.addBatch(batch, keys, written !== undefined && written.count === batch.count);
    if (written !== undefined) given.written.merge(written);
  }

  async rowCount(id: string): Promise<number> {
    await this.#manifest(id);
    return storedCount(this.pool, id);
  }

  async *readLines(id: string, from = 0): AsyncGenerator<string> {
    await this.#manifest(id);
    yield* linesBySeq(this.pool, id, from);
  }

  async *readRows(id: string): AsyncGenerator<StoredLine> {
    await this.checkRun(id);
    yield* linesInOrder(this.pool, id, this.#where(id));
  }

  async integrityOf(id: string): Promise<ResultsIntegrity> {
    await this.#manifest(id);
    return integrityOfRows(this.pool, id);
  }

  async complete(id: string, patch: ManifestPatch & { integrity: ResultsIntegrity }): Promise<RunManifest> {
    return inTransaction(this.pool, async (client) => {
      // Locks the run: two processes completing it at once complete it one after the other.
      const { rows } = await client.query<{ manifest: string }>('SELECT manifest FROM agentmark_runs WHERE id = $1 FOR UPDATE', [id]);
      if (rows[0] === undefined) throw await unknownRun(this.pool, id, this.location);
      const current = JSON.parse(rows[0].manifest) as RunManifest;
      const given = this.#given.get(id);
      this.#given.delete(id);
      // Every line given here, matching the record: the database hashes its rows by ranges of places (no read-back).
      const record = given?.value();
      const check = given !== undefined && record?.rows === patch.integrity.rows && record.sha256 === patch.integrity.sha256 ? await storedRangesMatch(client, id, given.ranges(), record.rows, given.written) : undefined;
      this.lastRangeCheck = check;
      if (given !== undefined && check?.match === true) {
        await this.#refuseDuplicate(id, current, given.duplicate);
        return this.#completed(client, current, id, patch);
      }
      // Otherwise the rows are read back whole, which also names what is wrong.
      const found = await readBackRows(this.pool, id);
      checkResults(this.location, this.#where(id), { ...current, integrity: patch.integrity }, { ...found, missing: false, torn: false });
      await this.#refuseDuplicate(id, current, found.duplicate);
      return this.#completed(client, current, id, patch);
    });
  }

  async #completed(client: PoolClient, current: RunManifest, id: string, patch: ManifestPatch): Promise<RunManifest> {
    const next: RunManifest = { ...current, ...patch, id };
    await client.query(`UPDATE agentmark_runs SET prompt_path = $2, git_branch = $3, git_commit = $4, status = $5, started_at = $6, manifest = $7 WHERE id = $1`, runColumns(next));
    return next;
  }

  async checkRun(id: string): Promise<void> {
    const manifest = await this.#manifest(id);
    const found = await readBackRows(this.pool, id);
    checkResults(this.location, this.#where(id), manifest, { ...found, missing: false, torn: false });
    await this.#refuseDuplicate(id, manifest, found.duplicate);
  }

  async storedLinesMatch(id: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity): Promise<boolean> {
    await this.#manifest(id);
    return storedLinesMatch(this.pool, id, lines, integrity);
  }

  replaceLines(id: string, lines: AsyncIterable<string>, integrity: ResultsIntegrity, viewColumnsJson?: string): Promise<void> {
    this.#given.delete(id);
    return replaceRows(this.pool, id, lines, integrity, this.#where(id), viewColumnsJson);
  }

  /** STORE_DUPLICATE_ROW when a check marked an (index, repeat) twice: only then is the database asked which, for the error. */
  async #refuseDuplicate(id: string, manifest: RunManifest, marked: boolean): Promise<void> {
    const twice = marked ? await duplicateKey(this.pool, id) : undefined;
    if (twice !== undefined) throw duplicateRowError(this.#where(id), manifest, twice[0], twice[1]);
  }

  /** The run's view index, kept or built from its rows (pg-view-index.ts); none for a run without its integrity record. */
  async viewColumns(id: string): Promise<RowIndex | undefined> {
    const manifest = await this.#manifest(id);
    return manifest.integrity === undefined ? undefined : viewColumnsOf(this.pool, id, manifest.integrity);
  }

  async putViewColumns(id: string, columnsJson: string, integrity: ResultsIntegrity): Promise<void> {
    await this.#manifest(id);
    await storeViewColumns(this.pool, id, columnsJson, integrity);
  }

  storedViewColumns(id: string, integrity: ResultsIntegrity): Promise<string | undefined> {
    return storedViewColumns(this.pool, id, integrity);
  }

  linesAt(id: string, places: readonly number[], integrity: ResultsIntegrity): Promise<string[] | undefined> {
    return linesAtPlaces(this.pool, id, places, integrity);
  }

  runsChangedAfter(after: ChangeCursor | undefined): Promise<StoreChanges> {
    return runsChangedAfter(this.pool, after);
  }

  readSnapshot<T>(id: string, use: (run: { manifest: RunManifest; change: number }, lines: AsyncIterable<string>) => Promise<T>): Promise<T | undefined> {
    return readRunSnapshot(this.pool, id, use);
  }

  putBlob(text: string): Promise<string> {
    return putBlobRow(this.pool, text);
  }

  getBlob(hash: string): Promise<string> {
    return getBlobRow(this.pool, this.location, hash);
  }

  async appendAnnotations(id: string, lines: readonly AnnotationLine[]): Promise<void> {
    await this.#manifest(id);
    await insertAnnotations(this.pool, id, lines);
  }

  async readAnnotations(id: string): Promise<AnnotationLine[]> {
    await this.#manifest(id);
    return selectAnnotations(this.pool, id);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
