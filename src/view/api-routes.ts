import { MAX_COMPARE_SHOW, MAX_ROWS_PER_REQUEST, type CompareResponse, type GridResponse, type RowDetailResponse, type RowIndex, type RowsResponse, type RunsResponse, type SearchResponse } from './api-types.js';
import { compareInCatalog, parseShow } from './compare-route.js';
import { gridInCatalog } from './grid-route.js';
import type { RunCatalog } from './run-catalog.js';
import { reproduceCommand, renderRowMessages } from './row-messages.js';
import { searchableText } from './run-index.js';
import { RunStoreError } from '../store/index.js';
import { JsonText } from './json-text.js';

/** What a route answers: a JSON body, or nothing (404). */
export type ApiResult = { status: 200; body: unknown } | { status: 400 | 404 | 409 | 410 | 503; body: { error: string } };

const notFound: ApiResult = { status: 404, body: { error: 'not found' } };
const ok = (body: unknown): ApiResult => ({ status: 200, body });

/** Whole non-negative numbers only: `1e3`, `-1`, `0x10` and `1.5` are not positions. */
function parseCount(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * A run's results that cannot be served: gone (410) or not what its manifest records (409). The
 * message names the run, never a path on this machine.
 */
function resultsProblem(error: unknown): ApiResult | undefined {
  if (error instanceof RunStoreError && error.code === 'STORE_RESULTS_MISSING') return { status: 410, body: { error: error.message } };
  if (error instanceof RunStoreError && (error.code === 'STORE_RESULTS_MISMATCH' || error.code === 'STORE_CORRUPT_RESULTS' || error.code === 'STORE_BAD_ANNOTATIONS')) return { status: 409, body: { error: error.message } };
  // A label that could not be written (no space, the lock held too long): it was not written, say why.
  if (error instanceof RunStoreError && (error.code === 'STORE_WRITE_FAILED' || error.code === 'STORE_ANNOTATIONS_LOCKED')) return { status: 503, body: { error: error.message } };
  if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 410, body: { error: 'the results file of this run is gone' } };
  return undefined;
}

/**
 * The JSON routes under /api/, by decoded path segments (after `api`). Ids go through the
 * catalog, which knows only existing run folders; anything else is a 404. Results that are
 * missing or damaged answer 410 / 409 with what is wrong.
 */
export function apiRoute(catalog: RunCatalog, segments: string[], query: URLSearchParams): Promise<ApiResult> {
  return answeringResultsProblems(() => route(catalog, segments, query));
}

/** Runs a route that reads a run's results; missing or damaged results answer 410 / 409 (no path), as every route's do. */
export async function answeringResultsProblems<T>(work: () => Promise<T>): Promise<T | ApiResult> {
  try {
    return await work();
  } catch (error) {
    const problem = resultsProblem(error);
    if (problem) return problem;
    throw error;
  }
}

async function route(catalog: RunCatalog, segments: string[], query: URLSearchParams): Promise<ApiResult> {
  const [first, id, part, arg, ...rest] = segments;
  if (first === 'grid') {
    const outcome = await gridInCatalog(catalog, segments.slice(1));
    return outcome.ok ? ok(outcome.result satisfies GridResponse) : { status: outcome.status, body: { error: outcome.error } };
  }
  if (first === 'compare') {
    if (id === undefined || part === undefined || arg !== undefined) return notFound;
    const show = parseShow(query.get('show'));
    if (show === undefined) return { status: 400, body: { error: `"show" takes a whole number of changed rows up to ${MAX_COMPARE_SHOW}` } };
    const outcome = await compareInCatalog(catalog, id, part, show);
    return outcome.ok ? ok(outcome.result satisfies CompareResponse) : { status: outcome.status, body: { error: outcome.error } };
  }
  if (first !== 'runs' || rest.length > 0) return notFound;
  if (id === undefined) return ok({ runs: await catalog.list() } satisfies RunsResponse);
  const manifest = await catalog.manifest(id);
  if (!manifest) return notFound;
  if (part === undefined) return ok(await catalog.run(id));
  const index = await catalog.index(id, manifest);
  if (part === 'index' && arg === undefined) {
    const text = index.columnsJson;
    return ok(text === undefined ? (index.columns satisfies RowIndex) : new JsonText(text));
  }
  if (part === 'rows' && arg === undefined) {
    const positions = (query.get('at') ?? '').split(',').filter((p) => p !== '').map(parseCount);
    if (positions.length > MAX_ROWS_PER_REQUEST || positions.some((p) => p === undefined)) {
      return { status: 400, body: { error: `"at" takes up to ${MAX_ROWS_PER_REQUEST} row positions, e.g. at=0,1,2` } };
    }
    const wanted = (positions as number[]).filter((p) => p < index.count);
    const rows = await index.rowsAt(wanted);
    return ok({ rows: rows.map((row, i) => ({ position: wanted[i] as number, row })) } satisfies RowsResponse);
  }
  if (part === 'rows' && arg !== undefined) {
    const datasetIndex = parseCount(arg);
    const positions = datasetIndex === undefined ? [] : index.positionsOf(datasetIndex);
    if (datasetIndex === undefined || positions.length === 0) return notFound;
    const rows = (await index.rowsAt(positions)).sort((a, b) => a.repeat - b.repeat);
    const prompt = await catalog.prompt(id, manifest);
    const first = rows[0];
    const body: RowDetailResponse = {
      rows,
      messages: first ? renderRowMessages(prompt, first.input) : null,
      ...('note' in prompt ? { messagesNote: prompt.note } : {}),
      reproduce: reproduceCommand(manifest, datasetIndex),
    };
    return ok(body);
  }
  if (part === 'flips' && arg === undefined) return ok(await catalog.flips(id, manifest));
  if (part === 'search' && arg === undefined) {
    const needle = (query.get('q') ?? '').toLowerCase();
    if (needle === '') return ok({ positions: Array.from({ length: index.count }, (_, i) => i) } satisfies SearchResponse);
    const positions: number[] = [];
    // Read in pages so a 100,000-row run never sits in memory whole.
    const PAGE = 2000;
    for (let start = 0; start < index.count; start += PAGE) {
      const rows = await index.rowsInRange(start, Math.min(start + PAGE, index.count));
      rows.forEach((row, i) => {
        if (searchableText(row).includes(needle)) positions.push(start + i);
      });
    }
    return ok({ positions } satisfies SearchResponse);
  }
  return notFound;
}
