import { runLimitGates, type RunLimits, type RunMeasures } from './run-limit-gates.js';
import type { ScoredEval } from '../scoring/types.js';
import type { EvalSummary, GateResult, RowResult } from './types.js';

export interface GateOptions {
  /** `--threshold` in percent (0..100). */
  threshold?: number;
  /** `test_settings.score_thresholds`: minimum mean normalised score per eval. */
  scoreThresholds?: Record<string, number>;
  evalNames: string[];
  /** Evals whose score schema says `"gate": false`: reported, left out of the evals and threshold gates. */
  ungated?: string[];
  /** `test_settings.judge_min_agreement`: minimum lower bound of each judge's kappa against labels. */
  judgeMinAgreement?: Record<string, number>;
  /** `test_settings.latency_p95_ms`, `cost_max_usd`, `tokens_max`. */
  runLimits?: RunLimits;
}

/** Tallies the gates need, gathered row by row so no row has to be kept. */
export interface GateTally {
  rows: number;
  erroredRows: number;
  /** Eval results carrying `passed`, plus eval errors (they count as not passed). */
  verdicts: number;
  passedVerdicts: number;
  failedVerdicts: number;
  /** Sum and count of normalised scores per eval; eval errors count as 0. */
  normalized: Map<string, { sum: number; count: number }>;
  /** Gated evals errored rows did not carry (other rows' `evals`): no verdict of theirs was lost. */
  absentOnErrored: number;
}

export function emptyTally(): GateTally {
  return { rows: 0, erroredRows: 0, verdicts: 0, passedVerdicts: 0, failedVerdicts: 0, normalized: new Map(), absentOnErrored: 0 };
}

export function tallyRow(tally: GateTally, row: RowResult, ungated?: ReadonlySet<string>): void {
  tally.rows++;
  if (row.error !== undefined) tally.erroredRows++;
  // for…in rather than Object.entries: no array per row (a merge tallies a million of them).
  for (const name in row.evals) {
    const result = row.evals[name] as ScoredEval;
    if (result.absent) {
      if (row.error !== undefined && !ungated?.has(name)) tally.absentOnErrored++;
      continue;
    }
    if (!ungated?.has(name) && (result.error !== undefined || result.passed !== undefined)) {
      tally.verdicts++;
      if (result.passed === true && result.error === undefined) tally.passedVerdicts++;
      else tally.failedVerdicts++;
    }
    if (result.error !== undefined || result.normalized !== undefined) {
      const entry = tally.normalized.get(name) ?? { sum: 0, count: 0 };
      entry.sum += result.error === undefined ? (result.normalized ?? 0) : 0;
      entry.count++;
      tally.normalized.set(name, entry);
    }
  }
}

/**
 * The run's gates. Without --threshold every eval must pass and no row may error; with it,
 * the pass rate over verdicts (errored rows counting as failed ones) must reach it.
 */
export function evaluateGates(tally: GateTally, options: GateOptions, evals: EvalSummary[], measured?: RunMeasures): GateResult[] {
  const gates: GateResult[] = [];
  if (tally.rows === 0) {
    gates.push({ name: 'rows', passed: false, message: 'no rows were run' });
    return gates;
  }
  if (options.threshold === undefined) {
    const failures = tally.failedVerdicts;
    const gated = options.evalNames.filter((name) => !options.ungated?.includes(name));
    if (tally.verdicts > 0) {
      gates.push({
        name: 'evals',
        passed: failures === 0,
        message: (failures === 0 ? `all ${tally.verdicts} eval results passed` : `${failures} of ${tally.verdicts} eval results did not pass`) + notGated(options),
      });
    } else if (gated.length > 0 && tally.erroredRows === tally.rows) {
      // "all 0 eval results passed" under a ✔ read as success to a user whose key was wrong.
      gates.push({ name: 'evals', passed: false, message: 'no eval results: every row errored before its evals ran' });
    }
    // Otherwise nothing gave a verdict (numeric scores, ungated evals, no evals): no gate to show passed.
    gates.push({
      name: 'errors',
      passed: tally.erroredRows === 0,
      message: tally.erroredRows === 0 ? 'no row errored' : `${tally.erroredRows} of ${tally.rows} rows errored`,
    });
  } else {
    const perRow = Math.max(1, options.evalNames.filter((name) => !options.ungated?.includes(name)).length);
    const total = tally.verdicts + tally.erroredRows * perRow - tally.absentOnErrored;
    const rate = total === 0 ? 0 : (tally.passedVerdicts / total) * 100;
    gates.push({
      name: 'threshold',
      passed: rate >= options.threshold,
      message: `pass rate ${rate.toFixed(1)}% ${rate >= options.threshold ? '>=' : '<'} threshold ${options.threshold}%${notGated(options)}`,
    });
  }
  for (const [name, minimum] of Object.entries(options.scoreThresholds ?? {})) {
    const entry = tally.normalized.get(name);
    const summary = evals.find((e) => e.name === name);
    if (!entry || entry.count === 0) {
      gates.push({ name: `score:${name}`, passed: false, message: `${name}: no normalised scores to compare with ${minimum}` });
      continue;
    }
    const mean = entry.sum / entry.count;
    gates.push({
      name: `score:${name}`,
      passed: mean >= minimum,
      message: `${name}: mean score ${mean.toFixed(3)} ${mean >= minimum ? '>=' : '<'} ${minimum}${summary?.errored ? ` (${summary.errored} errors count as 0)` : ''}`,
    });
  }
  if (options.runLimits && measured) gates.push(...runLimitGates(options.runLimits, measured));
  return gates;
}

/** Says which evals the verdict left out, so a failing ungated eval never looks like a pass. */
function notGated(options: GateOptions): string {
  const names = options.evalNames.filter((name) => options.ungated?.includes(name));
  return names.length === 0 ? '' : ` (not gated: ${names.join(', ')})`;
}
