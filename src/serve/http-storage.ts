import { UsageError } from '../errors/index.js';
import type { AnnotationLine } from '../review/types.js';
import { RunStoreError, type RunQuery, type RunStorage } from '../store/index.js';
import type { RowIndex } from '../store/row-index-types.js';
import type { StoredLine } from '../store/stored-run.js';
import type { ManifestPatch, ResultsIntegrity, RunManifest } from '../store/types.js';

/** The variable `runs push --to <url>` takes the writer's token from (never a flag: it would show in `ps`). */
export const TOKEN_ENV = 'AGENTMARK_TOKEN';

interface StoreRunAnswer {
  manifest: RunManifest | null;
  rows: number;
  annotations: AnnotationLine[];
}

/**
 * A team server's store as a push target (`agentmark runs push --to https://host:port`): the
 * writes of the storage contract sent to serve's `/api/store/` routes (src/serve/push-routes.ts)
 * with `Authorization: Bearer <writer token>`, so copyRun pushes over HTTP exactly as it pushes
 * into a database: the server's store checks the integrity record before the run is completed.
 * Only what a push needs is here; the rest is a UsageError.
 */
export class HttpStorage implements RunStorage {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly #base: URL;
  readonly #token: string;

  constructor(url: string, token: string) {
    this.#base = new URL(url.endsWith('/') ? url : `${url}/`);
    this.location = this.#base.origin;
    this.#token = token;
  }

  async #call<T>(method: string, path: string, body?: { type: string; text: string }): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.#base), {
        method,
        headers: { authorization: `Bearer ${this.#token}`, ...(body ? { 'content-type': body.type } : {}) },
        ...(body ? { body: body.text } : {}),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      throw new UsageError('USAGE_SERVE_UNREACHABLE', `cannot reach the team server at ${this.#base.host} (${code ?? 'no answer'})`, {
        hint: 'is `agentmark serve` running there, and is the URL given to --to right?',
        cause: error,
      });
    }
    const text = await response.text();
    let answer: { error?: string; code?: string; hint?: string } & Record<string, unknown> = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // Not our server's JSON (a proxy's page): the status says enough.
    }
    if (response.ok) return answer as T;
    const message = `${this.location}: ${answer.error ?? `HTTP ${response.status}`}`;
    const options = answer.hint === undefined ? {} : { hint: answer.hint };
    if (answer.code?.startsWith('STORE_') === true) throw new RunStoreError(answer.code as `STORE_${string}`, message, options);
    if (answer.code?.startsWith('USAGE_') === true) throw new UsageError(answer.code as `USAGE_${string}`, message, options);
    if (response.status === 401) throw new UsageError('USAGE_SERVE_UNAUTHORIZED', `${this.location} refused the token (401): ${answer.error ?? ''}`.trimEnd(), { hint: `set ${TOKEN_ENV} to a writer token made by \`agentmark tokens create --role writer\`` });
    if (response.status === 403) throw new UsageError('USAGE_SERVE_FORBIDDEN', `${this.location} refused the push (403): ${answer.error ?? ''}`.trimEnd(), { hint: 'a push needs a token of the writer (or admin) role' });
    throw new UsageError('USAGE_SERVE_FAILED', message);
  }

  #run(id: string): Promise<StoreRunAnswer> {
    return this.#call<StoreRunAnswer>('GET', `api/store/runs/${encodeURIComponent(id)}`);
  }

  async getRun(id: string): Promise<RunManifest | undefined> {
    return (await this.#run(id)).manifest ?? undefined;
  }

  async createRun(manifest: RunManifest): Promise<void> {
    await this.#call('POST', 'api/store/runs', { type: 'application/json', text: JSON.stringify(manifest) });
  }

  async rowCount(id: string): Promise<number> {
    return (await this.#run(id)).rows;
  }

  async appendRows(id: string, from: number, lines: readonly string[]): Promise<number> {
    const text = lines.map((line) => `${line}\n`).join('');
    return (await this.#call<{ added: number }>('POST', `api/store/runs/${encodeURIComponent(id)}/rows?from=${from}`, { type: 'application/x-ndjson', text })).added;
  }

  async complete(id: string, patch: ManifestPatch & { integrity: ResultsIntegrity }): Promise<RunManifest> {
    return (await this.#call<{ manifest: RunManifest }>('POST', `api/store/runs/${encodeURIComponent(id)}/complete`, { type: 'application/json', text: JSON.stringify({ patch }) })).manifest;
  }

  async putBlob(text: string): Promise<string> {
    return (await this.#call<{ hash: string }>('POST', 'api/store/blobs', { type: 'text/plain; charset=utf-8', text })).hash;
  }

  async appendAnnotations(id: string, lines: readonly AnnotationLine[]): Promise<void> {
    await this.#call('POST', `api/store/runs/${encodeURIComponent(id)}/annotations`, { type: 'application/json', text: JSON.stringify({ lines }) });
  }

  async readAnnotations(id: string): Promise<AnnotationLine[]> {
    return (await this.#run(id)).annotations;
  }

  #pushOnly(what: string): never {
    throw new UsageError('USAGE_PUSH_ONLY', `${this.location}: a team server is a push target only (${what})`, { hint: 'read its runs in the browser, or with AGENTMARK_STORE_URL naming its database' });
  }

  listRuns(_query?: RunQuery): Promise<RunManifest[]> {
    return this.#pushOnly('listing runs');
  }

  updateRun(_id: string, _patch: ManifestPatch): Promise<RunManifest> {
    return this.#pushOnly('changing a run');
  }

  /** A push's batches (appendRows) refresh the run's heartbeat in the server's store: nothing more to send. */
  async touchRun(_id: string): Promise<void> {}

  removeRun(_id: string): Promise<boolean> {
    return this.#pushOnly('removing a run');
  }

  listShards(_group: string): Promise<RunManifest[]> {
    return this.#pushOnly('listing a shard group');
  }

  mergedRunOf(_group: string): Promise<RunManifest | undefined> {
    return this.#pushOnly('finding a merged run');
  }

  lockShardGroup(_group: string): Promise<() => Promise<void>> {
    return this.#pushOnly('merging a shard group');
  }

  // eslint-disable-next-line require-yield
  async *readLines(_id: string, _from?: number): AsyncGenerator<string> {
    this.#pushOnly('reading rows');
  }

  // eslint-disable-next-line require-yield
  async *readRows(_id: string): AsyncGenerator<StoredLine> {
    this.#pushOnly('reading rows');
  }

  integrityOf(_id: string): Promise<ResultsIntegrity> {
    return this.#pushOnly('reading rows');
  }

  checkRun(_id: string): Promise<void> {
    return this.#pushOnly('checking a run');
  }

  viewColumns(_id: string): Promise<RowIndex | undefined> {
    return this.#pushOnly('reading rows');
  }

  getBlob(_hash: string): Promise<string> {
    return this.#pushOnly('reading files');
  }

  async close(): Promise<void> {
    // Nothing held: each call is its own request.
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
