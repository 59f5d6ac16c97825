import { findFlakyRows, summarizeEvals } from '../scoring/index.js';
import { emptyTally, evaluateGates, tallyRow, type GateOptions } from './gates.js';
import { percentile } from './percentile.js';
import type { RowResult, RunSummary } from './types.js';

/**
 * Gathers what the summary needs while rows stream past. Rows are kept only in a slim form
 * (no input, output or messages), so a 100,000-row run stays small in memory.
 */
export class RunAccumulator {
  private readonly slim: RowResult[] = [];
  private readonly latencies: number[] = [];
  private readonly tally = emptyTally();
  private errored = 0;
  private cached = 0;
  private pregenerated = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private totalTokens = 0;
  private cost = 0;
  private costKnown = false;

  add(row: RowResult): void {
    this.slim.push({
      index: row.index,
      line: row.line,
      repeat: row.repeat,
      input: {},
      metadata: {},
      toolCalls: [],
      evals: slimEvals(row.evals),
      cached: row.cached,
      retries: row.retries,
      ...(row.error === undefined ? {} : { error: '' }),
    });
    tallyRow(this.tally, row);
    if (row.error !== undefined) this.errored++;
    if (row.cached) this.cached++;
    if (row.pregenerated) this.pregenerated++;
    // Cached and pre-generated rows made no call now: their figures would skew the run's.
    if (row.cached || row.pregenerated || row.error !== undefined) return;
    if (row.latencyMs !== undefined) this.latencies.push(row.latencyMs);
    if (row.usage) {
      this.inputTokens += row.usage.inputTokens;
      this.outputTokens += row.usage.outputTokens;
      this.totalTokens += row.usage.totalTokens;
    }
    if (row.costUsd !== undefined) {
      this.cost += row.costUsd;
      this.costKnown = true;
    }
  }

  get rowCount(): number {
    return this.slim.length;
  }

  /** Rows with an error or an eval that did not pass, by index (for "rerun failed rows"). */
  failedIndexes(): Set<number> {
    const failed = new Set<number>();
    for (const row of this.slim) {
      const bad = row.error !== undefined || Object.values(row.evals).some((e) => e.error !== undefined || e.passed === false);
      if (bad) failed.add(row.index);
    }
    return failed;
  }

  finish(gateOptions: GateOptions): RunSummary {
    const evals = summarizeEvals(this.slim, gateOptions.evalNames);
    const gates = evaluateGates(this.tally, gateOptions, evals);
    const mean = this.latencies.length === 0 ? undefined : this.latencies.reduce((a, b) => a + b, 0) / this.latencies.length;
    return {
      rows: this.slim.length,
      errored: this.errored,
      cached: this.cached,
      pregenerated: this.pregenerated,
      evals,
      latencyMs: {
        ...(mean === undefined ? {} : { mean }),
        ...optional('p50', percentile(this.latencies, 50)),
        ...optional('p95', percentile(this.latencies, 95)),
      },
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens, totalTokens: this.totalTokens },
      ...(this.costKnown ? { costUsd: this.cost } : {}),
      flaky: findFlakyRows(this.slim),
      gates,
      passed: gates.every((gate) => gate.passed),
    };
  }
}

/** What statistics read of each eval result: numbers and verdicts, not the reason texts. */
function slimEvals(evals: RowResult['evals']): RowResult['evals'] {
  const slim: RowResult['evals'] = {};
  for (const [name, result] of Object.entries(evals)) {
    const { reason: _reason, error, ...rest } = result;
    slim[name] = error === undefined ? rest : { ...rest, error: '' };
  }
  return slim;
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
