import type { RowResult } from '../experiment/types.js';
import { UsageError } from '../errors/index.js';
import type { ScoreSchema } from '../project/types.js';
import { agreementOfRun, appendAnnotations, labelLine, runLabels, type RunLabels } from '../review/index.js';
import { verdictKind } from '../scoring/agreement/index.js';
import { openRunFolder, type RunManifest, type StoredRun } from '../store/index.js';
import type { AgreementResponse, LabelBody, QueueResponse, ReviewEval, ReviewResponse, ReviewRow } from './api-types.js';
import { parseQueueQuery, readsLabels, readsRows, rowInQueue, samplePositions } from './review-queue.js';
import type { RunCatalog } from './run-catalog.js';
import type { RunIndex } from './run-index.js';
import { LabelCache, labelSources } from './label-sources.js';

/** What the review routes need besides the catalog: the project's score schemas and who labels. */
export interface ReviewContext {
  scores(): Promise<Readonly<Record<string, ScoreSchema>>>;
  /** `--reviewer`, or git config user.name; a label without either must name its reviewer. */
  reviewer?: string;
}

type Result = { status: 200; body: unknown } | { status: 400 | 404; body: { error: string } };
const bad = (error: string): Result => ({ status: 400, body: { error } });
const PAGE = 2000;

/** The run's evals as a reviewer labels them, kinds from the score schemas. */
export function reviewEvals(evalNames: readonly string[], scores: Readonly<Record<string, ScoreSchema>>): ReviewEval[] {
  return evalNames.map((name) => {
    const schema = scores[name];
    const categories = schema?.categories?.map((c) => c.label);
    return {
      name,
      kind: verdictKind(schema),
      ...(categories ? { categories } : {}),
      ...(schema?.min === undefined ? {} : { min: schema.min }),
      ...(schema?.max === undefined ? {} : { max: schema.max }),
      judge: schema?.scorer === 'llm_judge',
    };
  });
}

/** A run for runLabels: its folder and manifest (its rows come from the viewer's index). */
function runOf(catalog: RunCatalog, id: string, manifest: RunManifest): StoredRun {
  return { dir: catalog.store.runDir(id), manifest, rowsInOrder: () => { throw new Error('not read here'); } };
}

/** Every row of the index, a page at a time (a 100,000-row run is never in memory whole). */
async function eachRow(index: RunIndex, visit: (row: RowResult, position: number) => void): Promise<void> {
  for (let start = 0; start < index.count; start += PAGE) {
    const rows = await index.rowsInRange(start, Math.min(start + PAGE, index.count));
    rows.forEach((row, i) => visit(row, start + i));
  }
}

const inDatasetOrder = (index: RunIndex) => (a: number, b: number): number =>
  (index.columns.index[a] as number) - (index.columns.index[b] as number) || (index.columns.repeat[a] as number) - (index.columns.repeat[b] as number);

/** A run with no label: what agreementOfRun gives for it, without reading its rows. */
const NO_AGREEMENT: AgreementResponse = { evals: [], reviewers: [], ties: {}, labelledRows: 0, ownLabels: 0, carried: 0 };

const agreements = new WeakMap<RunCatalog, LabelCache<AgreementResponse>>();
const reviews = new WeakMap<RunCatalog, LabelCache<ReviewRow[]>>();
function cacheOf<T>(caches: WeakMap<RunCatalog, LabelCache<T>>, catalog: RunCatalog): LabelCache<T> {
  let cache = caches.get(catalog);
  if (!cache) caches.set(catalog, (cache = new LabelCache<T>()));
  return cache;
}

/** GET /api/runs/<id>/review, /agreement and /queue. */
export async function reviewRoute(catalog: RunCatalog, context: ReviewContext, id: string, manifest: RunManifest, part: string, query: URLSearchParams): Promise<Result | undefined> {
  if (part !== 'review' && part !== 'queue' && part !== 'agreement') return undefined;
  const index = await catalog.index(id, manifest);
  const version = await labelSources(catalog, manifest, index.count);
  if (part === 'agreement') {
    if (version === undefined) return { status: 200, body: NO_AGREEMENT };
    const scores = await context.scores();
    // Read in dataset order through the store, as `agentmark agreement` does: the same bootstrap, the same interval.
    const body = await cacheOf(agreements, catalog).get(id, version, async () => agreementOfRun(await openRunFolder(await catalog.folder(id)), scores, catalog.store));
    return { status: 200, body };
  }
  const evals = reviewEvals(manifest.summary?.evals.map((e) => e.name) ?? index.evalNames, await context.scores());
  if (part === 'queue') {
    const parsed = parseQueueQuery(query, evals);
    if (typeof parsed === 'string') return bad(parsed);
    let positions: number[];
    if (parsed.filter === 'sample') positions = samplePositions(index.count, parsed);
    else if (!readsRows(parsed.filter)) positions = Array.from({ length: index.count }, (_, p) => p);
    else {
      const labels = readsLabels(parsed.filter) ? await runLabels(runOf(catalog, id, manifest), catalog.store) : undefined;
      positions = [];
      await eachRow(index, (row, p) => {
        if (rowInQueue(row, labels?.labelsFor(row) ?? [], evals, parsed)) positions.push(p);
      });
    }
    return { status: 200, body: { filter: parsed.filter, positions: positions.sort(inDatasetOrder(index)) } satisfies QueueResponse };
  }
  if (version === undefined) return { status: 200, body: { evals, rows: [] } satisfies ReviewResponse };
  const rows = await cacheOf(reviews, catalog).get(id, version, async () => {
    const labels = await runLabels(runOf(catalog, id, manifest), catalog.store);
    const found: ReviewRow[] = [];
    await eachRow(index, (row) => {
      const own = labels.labelsFor(row);
      if (own.length > 0) found.push({ index: row.index, repeat: row.repeat, labels: own });
    });
    return found.sort((a, b) => a.index - b.index || a.repeat - b.repeat);
  });
  return { status: 200, body: { evals, rows } satisfies ReviewResponse };
}

/** The body of a label, checked for shape (its value is checked against the score schema later). */
function parseLabelBody(value: unknown): LabelBody | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a label is a JSON object';
  const body = value as Record<string, unknown>;
  const whole = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!whole(body['index']) || !whole(body['repeat'])) return '"index" and "repeat" are whole numbers';
  if (typeof body['eval'] !== 'string' || body['eval'] === '') return '"eval" is an eval name';
  const v = body['value'];
  if (v !== null && typeof v !== 'boolean' && typeof v !== 'number' && typeof v !== 'string') return '"value" is true, false, a number, a label, or null to take the label back';
  if (body['note'] !== undefined && typeof body['note'] !== 'string') return '"note" is text';
  const reviewer = body['reviewer'];
  if (reviewer !== undefined && (typeof reviewer !== 'string' || reviewer.trim() === '' || reviewer.length > 200)) return '"reviewer" is a name';
  return body as unknown as LabelBody;
}

/**
 * POST /api/runs/<id>/labels (after the write checks): one label line, checked against the eval's
 * score schema as `agentmark annotate` checks it, appended in one write. Answers the row's labels
 * in force afterwards.
 */
export async function labelRoute(catalog: RunCatalog, context: ReviewContext, id: string, manifest: RunManifest, value: unknown, now: () => Date): Promise<Result> {
  const body = parseLabelBody(value);
  if (typeof body === 'string') return bad(body);
  const reviewer = body.reviewer?.trim() ?? context.reviewer;
  if (reviewer === undefined) return bad('who is labelling? give "reviewer" (the viewer was started without --reviewer and git config user.name is not set)');
  const index = await catalog.index(id, manifest);
  const position = index.positionsOf(body.index).find((p) => index.columns.repeat[p] === body.repeat);
  if (position === undefined) return { status: 404, body: { error: `row ${body.index} (repeat ${body.repeat}) is not in run ${id}` } };
  const [row] = (await index.rowsAt([position])) as [RowResult];
  let line;
  try {
    line = labelLine(
      { row, eval: body.eval, value: body.value ?? undefined, reviewer, at: now().toISOString(), ...(body.note === undefined ? {} : { note: body.note }) },
      await context.scores(),
    );
  } catch (error) {
    if (error instanceof UsageError) return bad(error.message);
    throw error;
  }
  // Every label file the answer reads is read first: one that cannot be read is a 409 before
  // anything is written, so a label answered with an error was not written (a retry adds no copy).
  await runLabels(runOf(catalog, id, manifest), catalog.store);
  await appendAnnotations(catalog.store.runDir(id), [line]);
  const labels: RunLabels = await runLabels(runOf(catalog, id, manifest), catalog.store);
  return { status: 200, body: { index: row.index, repeat: row.repeat, labels: labels.labelsFor(row) } satisfies ReviewRow };
}
