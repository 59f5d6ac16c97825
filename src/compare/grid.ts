import { UsageError } from '../errors/index.js';
import { userTurns } from '../conversation/user-turns.js';
import type { RowResult } from '../experiment/types.js';
import type { StoredRun } from '../store/index.js';
import { compareRuns, type CompareOptions } from './compare-runs.js';
import type { CompareResult } from './types.js';
import type { GridCell, GridEval, GridResult, GridRow, GridRun } from './grid-types.js';
import { reduceRows, type ReducedRow } from './reduce-rows.js';

export interface GridOptions extends Omit<CompareOptions, 'cwd' | 'prompt'> {
  /** Keep only rows where the runs' verdicts or outputs differ. */
  disagree?: boolean;
  /** Keep only rows where some run errored or did not pass an eval. */
  failed?: boolean;
  /** `disagreement`: most evals differing first (then differing outputs), ties in dataset order. @default 'dataset' */
  sort?: 'dataset' | 'disagreement';
  /** Rows kept (the rest are counted). @default 1000 */
  limit?: number;
  /** Each cell's output is cut to this many characters (0: never). @default 2000 */
  maxOutput?: number;
  /** Each head against the base, when already computed (`comparisons[i]` is `runs[i + 1]`); else `compareRuns` runs here. */
  comparisons?: CompareResult[];
}

/** Labels by what varies between the runs: model, prompt name, both; the id when that is not enough. */
export function gridLabels(runs: readonly StoredRun[]): string[] {
  const models = runs.map((r) => r.manifest.model);
  const prompts = runs.map((r) => r.manifest.prompt?.name ?? '?');
  const varies = (values: string[]): boolean => new Set(values).size > 1;
  const labels = runs.map((_, i) => [varies(models) ? models[i] : undefined, varies(prompts) ? prompts[i] : undefined].filter((x) => x !== undefined).join(' · '));
  return labels.map((label, i) => {
    const id = runs[i]?.manifest.id ?? '';
    if (label === '') return id;
    return labels.filter((other) => other === label).length > 1 ? `${label} (${id})` : label;
  });
}

const outputText = (output: RowResult['output']): string | undefined => (output === undefined ? undefined : typeof output === 'string' ? output : JSON.stringify(output));

function cellOf(row: RowResult, index: number, evals: readonly string[], maxOutput: number): GridCell {
  const text = outputText(row.output);
  const cellEvals: Record<string, GridEval> = {};
  for (const name of evals) {
    const e = row.evals[name];
    if (!e || e.skipped) continue;
    cellEvals[name] = {
      ...(e.passed === undefined ? {} : { passed: e.passed }),
      ...(e.score === undefined ? {} : { score: e.score }),
      ...(e.label === undefined ? {} : { label: e.label }),
      ...(e.error === undefined ? {} : { error: e.error }),
    };
  }
  return {
    ...(text === undefined ? {} : { output: maxOutput > 0 && text.length > maxOutput ? `${text.slice(0, maxOutput - 1)}…` : text }),
    ...(row.error === undefined ? {} : { error: row.error }),
    evals: cellEvals,
    ...(row.latencyMs === undefined ? {} : { latencyMs: row.latencyMs }),
    ...(row.costUsd === undefined ? {} : { costUsd: row.costUsd }),
    ...(row.conversation === undefined ? {} : { conversation: { row: index, turns: userTurns(row.conversation.turns), endedBy: row.conversation.endedBy } }),
  };
}

/** What an eval said on one reduced row, as one comparable string (verdict share, score, label, error). */
function evalKey(row: ReducedRow, name: string): string {
  const reduced = row.evals.get(name);
  const first = row.first.evals[name];
  return JSON.stringify([reduced?.verdict, reduced?.score, first?.label, row.first.error === undefined ? undefined : 'row error']);
}

/** What decides whether a joined row is kept and where it sorts: worked out before its cells. */
type RowStanding = Pick<GridRow, 'index' | 'evalsDiffering' | 'outputsDiffer' | 'failed'>;

function standingOf(rows: readonly ReducedRow[], evals: readonly string[]): RowStanding {
  const evalsDiffering = evals.filter((name) => new Set(rows.map((r) => evalKey(r, name))).size > 1).length;
  const outputs = new Set(rows.map((r) => JSON.stringify([outputText(r.first.output), r.first.error])));
  const failed = rows.some((r) => r.first.error !== undefined || [...r.evals.values()].some((e) => e.verdict !== undefined && e.verdict < 1));
  return { index: (rows[0] as ReducedRow).index, evalsDiffering, outputsDiffer: outputs.size > 1, failed };
}

/** A kept row with its cells (output cut, evals copied): built only for the rows the grid keeps. */
function gridRow(rows: readonly ReducedRow[], standing: RowStanding, evals: readonly string[], maxOutput: number): GridRow {
  const first = (rows[0] as ReducedRow).first;
  return {
    index: standing.index,
    input: first.input,
    ...(first.expectedOutput === undefined ? {} : { expectedOutput: first.expectedOutput }),
    cells: rows.map((r) => cellOf(r.first, r.index, evals, maxOutput)),
    evalsDiffering: standing.evalsDiffering,
    outputsDiffer: standing.outputsDiffer,
    failed: standing.failed,
  };
}

/**
 * Rows of several runs joined by identity while read in step; a row waits only until every run
 * has it, so runs of the same dataset hold about one row each. The k-th copy of a duplicated row
 * joins the k-th copy in the other runs (each identity keeps a queue of partial joins).
 */
async function* joinRows(streams: AsyncIterator<ReducedRow>[], missing: number[]): AsyncGenerator<ReducedRow[]> {
  const n = streams.length;
  const waiting = new Map<string, Array<Array<ReducedRow | undefined>>>();
  const done = streams.map(() => false);
  while (done.some((d) => !d)) {
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      const next = await (streams[i] as AsyncIterator<ReducedRow>).next();
      if (next.done) {
        done[i] = true;
        continue;
      }
      const key = next.value.key;
      const queue = waiting.get(key) ?? [];
      let slots = queue.find((s) => s[i] === undefined);
      if (!slots) queue.push((slots = new Array<ReducedRow | undefined>(n).fill(undefined)));
      slots[i] = next.value;
      if (slots.every((s) => s !== undefined)) {
        queue.splice(queue.indexOf(slots), 1);
        yield slots as ReducedRow[];
      }
      if (queue.length === 0) waiting.delete(key);
      else waiting.set(key, queue);
    }
  }
  for (const queue of waiting.values()) {
    for (const slots of queue) slots.forEach((s, i) => {
      if (s === undefined) missing[i] = (missing[i] ?? 0) + 1;
    });
  }
}

const byDisagreement = (a: RowStanding, b: RowStanding): number =>
  b.evalsDiffering - a.evalsDiffering || Number(b.outputsDiffer) - Number(a.outputsDiffer) || a.index - b.index;

/**
 * The results grid of three or more runs: every head compared with the base by `compareRuns`,
 * and the rows common to all runs side by side, filtered and sorted, at most `limit` kept.
 */
export async function buildGrid(runs: readonly StoredRun[], options: GridOptions = {}): Promise<GridResult> {
  const [base, ...heads] = runs;
  if (!base || heads.length === 0) throw new UsageError('USAGE_MISSING_RUN', 'a grid needs at least two runs');
  const comparisons = options.comparisons ?? [];
  if (options.comparisons === undefined) for (const head of heads) comparisons.push(await compareRuns(base, head, options));
  const evals: string[] = [];
  for (const run of runs) for (const e of run.manifest.summary?.evals ?? []) if (!evals.includes(e.name)) evals.push(e.name);
  const limit = options.limit ?? 1000;
  const maxOutput = options.maxOutput ?? 2000;
  const sort = options.sort ?? 'dataset';
  const missing = runs.map(() => 0);
  const kept: GridRow[] = [];
  let common = 0;
  let matched = 0;
  const streams = runs.map((run) => reduceRows(run.rowsInOrder(), run.manifest.summary?.evals.map((e) => e.name) ?? []));
  for await (const joined of joinRows(streams, missing)) {
    common++;
    const standing = standingOf(joined, evals);
    if (options.disagree && standing.evalsDiffering === 0 && !standing.outputsDiffer) continue;
    if (options.failed && !standing.failed) continue;
    matched++;
    if (sort === 'dataset') {
      if (kept.length < limit) kept.push(gridRow(joined, standing, evals, maxOutput));
      continue;
    }
    // The top `limit` by disagreement, kept sorted: memory stays at `limit` rows.
    let at = kept.length;
    while (at > 0 && byDisagreement(standing, kept[at - 1] as GridRow) < 0) at--;
    if (at < limit) {
      kept.splice(at, 0, gridRow(joined, standing, evals, maxOutput));
      if (kept.length > limit) kept.pop();
    }
  }
  if (sort === 'dataset') kept.sort((a, b) => a.index - b.index);
  const labels = gridLabels(runs);
  const gridRuns: GridRun[] = runs.map((run, i) => ({ id: run.manifest.id, label: labels[i] as string, model: run.manifest.model, prompt: run.manifest.prompt?.name ?? '?' }));
  return {
    version: 1,
    runs: gridRuns,
    evals,
    comparisons,
    common,
    missing,
    filter: { disagree: options.disagree ?? false, failed: options.failed ?? false, sort },
    matched,
    rows: kept,
    omitted: matched - kept.length,
  };
}
