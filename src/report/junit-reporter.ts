import type { RowResult } from '../experiment/types.js';
import { formatEvalCell } from './format-eval-cell.js';
import { rowLabel } from './row-label.js';
import type { FinishedRun, OutputStream, Reporter } from './types.js';
import { xmlEscape } from './xml-escape.js';

interface TestCase {
  name: string;
  time: number;
  failure?: string;
  error?: string;
  /** The row's model call timed out: the error carries `type="timeout"`. */
  timedOut?: boolean;
  /** Score-only results have no verdict; their reading goes to system-out so it is not lost. */
  output?: string;
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

function testCases(row: RowResult, evalNames: readonly string[], withRepeat: boolean): TestCase[] {
  const label = `row ${rowLabel(row, withRepeat)}`;
  const time = row.latencyMs ?? 0;
  if (evalNames.length === 0) {
    return [{ name: label, time, ...(row.error !== undefined && { error: row.error }), ...(row.timedOut ? { timedOut: true } : {}) }];
  }
  // An eval only other rows carry (their `evals`) is no test case of this row.
  return evalNames.filter((name) => row.evals[name]?.absent !== true).map((name) => {
    const base = { name: `${label} · ${name}`, time };
    const result = row.evals[name];
    if (row.error !== undefined) return { ...base, error: row.error, ...(row.timedOut ? { timedOut: true } : {}) };
    if (result === undefined) return { ...base, error: 'eval did not run' };
    if (result.error !== undefined) return { ...base, error: result.error };
    if (result.passed === false) return { ...base, failure: formatEvalCell(result) };
    if (result.passed === undefined) return { ...base, output: formatEvalCell(result) };
    return base;
  });
}

function caseXml(testCase: TestCase, className: string): string {
  const open = `    <testcase name="${xmlEscape(testCase.name)}" classname="${xmlEscape(className)}" time="${seconds(testCase.time)}"`;
  if (testCase.error !== undefined) return `${open}>\n      <error${testCase.timedOut ? ' type="timeout"' : ''} message="${xmlEscape(testCase.error)}"/>\n    </testcase>`;
  if (testCase.failure !== undefined) {
    return `${open}>\n      <failure message="${xmlEscape(testCase.failure)}"/>\n    </testcase>`;
  }
  if (testCase.output !== undefined) {
    return `${open}>\n      <system-out>${xmlEscape(testCase.output)}</system-out>\n    </testcase>`;
  }
  return `${open}/>`;
}

interface SuiteCounts {
  tests: number;
  failures: number;
  errors: number;
  /** Seconds, as written. */
  time: number;
  withRepeat: boolean;
}

/** What a suite's header needs, from a first pass over the run's rows. */
async function countSuite(run: FinishedRun): Promise<SuiteCounts> {
  const counts: SuiteCounts = { tests: 0, failures: 0, errors: 0, time: 0, withRepeat: false };
  let latencyMs = 0;
  for await (const row of run.rows()) {
    if (row.repeat > 0) counts.withRepeat = true;
    // Each row's latency counts once even though it appears in one case per eval.
    latencyMs += row.latencyMs ?? 0;
    for (const testCase of testCases(row, run.info.evalNames, false)) {
      counts.tests += 1;
      if (testCase.failure !== undefined) counts.failures += 1;
      if (testCase.error !== undefined) counts.errors += 1;
    }
  }
  if (unfinishedCase(run)) {
    counts.tests += 1;
    counts.errors += 1;
  }
  counts.time = Number(seconds(run.info.durationMs ?? latencyMs));
  return counts;
}

/** A run that did not finish is an error of its own: its missing rows would otherwise pass unseen. */
function unfinishedCase(run: FinishedRun): TestCase | undefined {
  const outcome = run.summary.outcome;
  if (outcome === undefined) return undefined;
  return { name: `run ${outcome}`, time: 0, error: `the run did not finish (${outcome.toUpperCase()}) after ${run.summary.rows} rows` };
}

const attributes = (c: Omit<SuiteCounts, 'withRepeat'>): string =>
  `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" time="${c.time.toFixed(3)}"`;

/**
 * JUnit XML for CI: one <testsuite> per run (per prompt) in one <testsuites> with the totals,
 * one test case per row × eval; failures are FAIL verdicts, errors are errors. Two passes over
 * each run's rows, read back from its results file: the counts the headers need, then the
 * cases, written one row at a time.
 */
export async function writeJunit(out: OutputStream, runs: readonly FinishedRun[]): Promise<void> {
  const counts: SuiteCounts[] = [];
  for (const run of runs) counts.push(await countSuite(run));
  const totals = { tests: 0, failures: 0, errors: 0, time: 0 };
  for (const c of counts) {
    totals.tests += c.tests;
    totals.failures += c.failures;
    totals.errors += c.errors;
    totals.time += c.time;
  }
  out.write(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agentmark" ${attributes(totals)}>\n`);
  for (const [i, run] of runs.entries()) {
    const suite = counts[i] ?? { tests: 0, failures: 0, errors: 0, time: 0, withRepeat: false };
    out.write(`  <testsuite name="${xmlEscape(run.info.promptPath)}" ${attributes(suite)}>\n`);
    for await (const row of run.rows()) {
      for (const testCase of testCases(row, run.info.evalNames, suite.withRepeat)) out.write(`${caseXml(testCase, run.info.promptName)}\n`);
    }
    const unfinished = unfinishedCase(run);
    if (unfinished) out.write(`${caseXml(unfinished, run.info.promptName)}\n`);
    out.write('  </testsuite>\n');
  }
  out.write('</testsuites>\n');
}

/** The JUnit XML of one run, written when it ends (see `writeJunit`). */
export function createJunitReporter(out: OutputStream): Reporter {
  return {
    onRunEnd: (summary, info, rows) => writeJunit(out, [{ summary, info, rows }]),
  };
}
