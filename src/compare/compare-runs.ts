import { UsageError } from '../errors/index.js';
import { resolveRunRef } from '../history/index.js';
import { unfinishedRunError, type StoredRun } from '../store/index.js';
import { ChangedRowCollector } from './changed-rows.js';
import { describeRun, runDifferences, runPerformance } from './describe-run.js';
import { EvalPairs, type RowChange } from './eval-pairs.js';
import { evalStatistics, type RawEvalStats } from './eval-statistics.js';
import { gateEvals } from './gate-evals.js';
import { promptDiff } from './prompt-diff.js';
import { pairRows, type Unpaired } from './pair-rows.js';
import { reduceRows, type ReducedRow } from './reduce-rows.js';
import { ToleranceCollector } from './tolerance.js';
import type { CompareResult, Pairing, RunDescription, UnpairedRow } from './types.js';

export interface CompareOptions {
  /** Project whose runs string references name. @default process.cwd() */
  projectRoot?: string;
  /** Folder path references are relative to. @default projectRoot */
  cwd?: string;
  /** Prompt in context for `latest` and `@ref` (path relative to the project root). */
  prompt?: string;
  /** Significance level of the gate. @default 0.05 */
  alpha?: number;
  /** Bootstrap resamples. @default 10000 */
  resamples?: number;
  /** Bootstrap seed. @default 0 */
  seed?: number;
  /**
   * The drop in points (0..100) the comparison must be able to detect for the gate to say
   * `no regression` (else `inconclusive`); given, a drop past it is also a regression. @default 5 (for power only)
   */
  maxDrop?: number;
  /** Whether the gate was asked for; recorded in `gate.checked`. @default maxDrop !== undefined */
  failOnRegression?: boolean;
  /** Changed rows listed in full. @default 20 */
  maxChangedRows?: number;
  /** Unpaired rows listed per side. @default 10 */
  maxUnpairedRows?: number;
  /** AgentMark's `regression_tolerance` (a fraction): also check every row × eval score against it. */
  tolerance?: number;
}

/** A run to compare: a reference (`latest`, an id, `@main`, a folder) or a run already opened. */
export type RunSource = string | StoredRun;

function evalNamesOf(run: StoredRun): string[] {
  const summary = run.manifest.summary;
  if (!summary) {
    throw unfinishedRunError(run.dir, run.manifest);
  }
  return summary.evals.map((e) => e.name);
}

const unpairedRow = (row: ReducedRow): UnpairedRow => ({ index: row.index, input: row.first.input });

/**
 * Compares two runs row by row: pairs their rows by content, reading both results files as
 * streams in dataset order, then computes per eval the paired differences with intervals,
 * p-values (Holm-adjusted across evals), improved/regressed counts and the smallest change the
 * comparison can detect, plus the rows that changed verdict and the regression gate.
 */
export async function compareRuns(baseSource: RunSource, headSource: RunSource, options: CompareOptions = {}): Promise<CompareResult> {
  const projectRoot = options.projectRoot ?? process.cwd();
  const context = { projectRoot, cwd: options.cwd ?? projectRoot, ...(options.prompt === undefined ? {} : { prompt: options.prompt }) };
  const base = typeof baseSource === 'string' ? await resolveRunRef(baseSource, context) : baseSource;
  const head = typeof headSource === 'string' ? await resolveRunRef(headSource, context) : headSource;
  const alpha = options.alpha ?? 0.05;
  const resamples = options.resamples ?? 10_000;
  const seed = options.seed ?? 0;
  const baseEvals = evalNamesOf(base);
  const headEvals = evalNamesOf(head);
  const names = [...baseEvals, ...headEvals.filter((name) => !baseEvals.includes(name))];
  const pairsByEval = new Map(names.map((name) => [name, new EvalPairs(name)]));
  const changed = new ChangedRowCollector(options.maxChangedRows ?? 20);
  const tolerance = options.tolerance === undefined ? undefined : new ToleranceCollector(options.tolerance);
  const unpaired: { base: Unpaired; head: Unpaired } = { base: { count: 0, first: [] }, head: { count: 0, first: [] } };
  let paired = 0;
  const baseRows = reduceRows(base.rowsInOrder(), baseEvals);
  const headRows = reduceRows(head.rowsInOrder(), headEvals);
  // One map for every pair: the collector reads it and keeps what it lists.
  const changes = new Map<string, RowChange>();
  for await (const pair of pairRows(baseRows, headRows, unpaired, options.maxUnpairedRows ?? 10)) {
    paired++;
    changes.clear();
    for (const [name, pairs] of pairsByEval) {
      const b = pair.base.evals.get(name);
      const h = pair.head.evals.get(name);
      const change = pairs.add(b, h);
      if (change !== undefined) changes.set(name, change);
      if (tolerance && b?.score !== undefined && h?.score !== undefined) tolerance.add(pair, name, b.score, h.score);
    }
    changed.add(pair, changes);
  }

  const baseDescription = describeRun(base, paired + unpaired.base.count);
  const headDescription = describeRun(head, paired + unpaired.head.count);
  if (paired === 0) throw noPairedRows(baseDescription, headDescription);
  const raw: RawEvalStats[] = [...pairsByEval.values()].map((pairs, i) => evalStatistics(pairs, { resamples, seed: seed + 2 * i }));
  const maxDropPoints = options.maxDrop ?? DEFAULT_MAX_DROP;
  const checked = options.failOnRegression ?? options.maxDrop !== undefined;
  const { evals, gate } = gateEvals(raw, { alpha, checked, maxDropPoints, maxDropGiven: options.maxDrop !== undefined });
  const warning = pairingWarning(paired, baseDescription, headDescription);
  return {
    version: 2,
    base: baseDescription,
    head: headDescription,
    differences: runDifferences(baseDescription, headDescription),
    pairing: {
      paired,
      onlyInBase: unpaired.base.count,
      onlyInHead: unpaired.head.count,
      onlyInBaseRows: unpaired.base.first.map(unpairedRow),
      onlyInHeadRows: unpaired.head.first.map(unpairedRow),
      ...(warning === undefined ? {} : { warning }),
    },
    settings: { alpha, resamples, seed, maxDropPoints, maxDropGiven: options.maxDrop !== undefined },
    evals,
    performance: { base: runPerformance(base), head: runPerformance(head) },
    changedRows: changed.finish(),
    gate,
    ...(tolerance ? { tolerance: tolerance.finish() } : {}),
    promptDiff: await promptDiff(base, head),
  };
}

/** The drop, in points, a comparison must be able to detect when `--max-drop` is not given. */
export const DEFAULT_MAX_DROP = 5;

/** A line for every format when fewer than half of either run's rows found a partner. */
function pairingWarning(paired: number, base: RunDescription, head: RunDescription): Pairing['warning'] {
  if (paired * 2 >= base.rows && paired * 2 >= head.rows) return undefined;
  return `fewer than half of the rows paired (base ${paired} of ${base.rows}, head ${paired} of ${head.rows}): the comparison speaks for the paired rows only`;
}

/** Two runs with no row in common: nothing can be said, so no gate may pass. Names what differs. */
function noPairedRows(base: RunDescription, head: RunDescription): UsageError {
  const differs: string[] = [];
  if (base.dataset?.hash !== head.dataset?.hash) {
    const text = (run: RunDescription): string => (run.dataset ? `${run.dataset.path} ${run.dataset.hash.slice(0, 12)}` : 'none');
    differs.push(`dataset (base ${text(base)}, head ${text(head)})`);
  }
  const selection = (run: RunDescription): string => (run.selection === undefined ? 'all rows' : JSON.stringify(run.selection));
  if (selection(base) !== selection(head)) differs.push(`row selection (base ${selection(base)}, head ${selection(head)})`);
  const what = differs.length > 0 ? `; they differ in ${differs.join(' and ')}` : '';
  return new UsageError('USAGE_NO_PAIRED_ROWS', `no rows in common between base ${base.id} (${base.rows} rows) and head ${head.id} (${head.rows} rows)${what}`, {
    hint: 'rows pair by their content (input, expected output, metadata); compare two runs of the same dataset',
  });
}

