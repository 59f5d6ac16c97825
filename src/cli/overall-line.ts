import { ExitCode } from './exit-codes.js';

/** How the experiments of one command line went, counted as they end. */
export interface OverallTally {
  passed: number;
  failed: number;
  /** Could not start (an input error in that prompt). */
  broken: number;
  interrupted: number;
  rows: number;
  errored: number;
}

export const emptyTally = (): OverallTally => ({ passed: 0, failed: 0, broken: 0, interrupted: 0, rows: 0, errored: 0 });

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The verdict that goes with an exit code, so the last line never says PASSED when the process exits 1. */
function verdict(code: number): string {
  if (code === ExitCode.ok) return 'PASSED';
  if (code === ExitCode.gateFailed) return 'FAILED';
  if (code === ExitCode.interrupted) return 'INTERRUPTED';
  return 'FAILED: an experiment could not run';
}

/**
 * The one line that ends a run of several experiments, e.g.
 * `Overall:  3 experiments, 9 rows (0 errored): 2 passed, 1 failed → FAILED (exit 1)`.
 */
export function overallLine(tally: OverallTally, code: number, experiments: number): string {
  const outcomes = [`${tally.passed} passed`, `${tally.failed} failed`];
  if (tally.broken > 0) outcomes.push(`${tally.broken} could not run`);
  if (tally.interrupted > 0) outcomes.push(`${tally.interrupted} interrupted`);
  const notRun = experiments - tally.passed - tally.failed - tally.broken - tally.interrupted;
  if (notRun > 0) outcomes.push(`${notRun} not run`);
  return `Overall:  ${plural(experiments, 'experiment')}, ${plural(tally.rows, 'row')} (${tally.errored.toLocaleString('en-US')} errored): ${outcomes.join(', ')} → ${verdict(code)} (exit ${code})\n`;
}
