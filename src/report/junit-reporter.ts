import type { RowResult } from '../experiment/types.js';
import { formatEvalCell } from './format-eval-cell.js';
import { rowLabel } from './row-label.js';
import type { OutputStream, Reporter } from './types.js';
import { xmlEscape } from './xml-escape.js';

interface TestCase {
  name: string;
  time: number;
  failure?: string;
  error?: string;
  /** Score-only results have no verdict; their reading goes to system-out so it is not lost. */
  output?: string;
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

function testCases(row: RowResult, evalNames: readonly string[], withRepeat: boolean): TestCase[] {
  const label = `row ${rowLabel(row, withRepeat)}`;
  const time = row.latencyMs ?? 0;
  if (evalNames.length === 0) {
    return [{ name: label, time, ...(row.error !== undefined && { error: row.error }) }];
  }
  return evalNames.map((name) => {
    const base = { name: `${label} · ${name}`, time };
    const result = row.evals[name];
    if (row.error !== undefined) return { ...base, error: row.error };
    if (result === undefined) return { ...base, error: 'eval did not run' };
    if (result.error !== undefined) return { ...base, error: result.error };
    if (result.passed === false) return { ...base, failure: formatEvalCell(result) };
    if (result.passed === undefined) return { ...base, output: formatEvalCell(result) };
    return base;
  });
}

function caseXml(testCase: TestCase, className: string): string {
  const open = `    <testcase name="${xmlEscape(testCase.name)}" classname="${xmlEscape(className)}" time="${seconds(testCase.time)}"`;
  if (testCase.error !== undefined) return `${open}>\n      <error message="${xmlEscape(testCase.error)}"/>\n    </testcase>`;
  if (testCase.failure !== undefined) {
    return `${open}>\n      <failure message="${xmlEscape(testCase.failure)}"/>\n    </testcase>`;
  }
  if (testCase.output !== undefined) {
    return `${open}>\n      <system-out>${xmlEscape(testCase.output)}</system-out>\n    </testcase>`;
  }
  return `${open}/>`;
}

/**
 * JUnit XML for CI: one test case per row × eval; failures are FAIL verdicts, errors are errors.
 * Two passes over the rows read back from the run's results file: the counts the header needs,
 * then the cases, written one row at a time.
 */
export function createJunitReporter(out: OutputStream): Reporter {
  return {
    async onRunEnd(_summary, info, rows) {
      let withRepeat = false;
      const totals = { tests: 0, failures: 0, errors: 0, latencyMs: 0 };
      for await (const row of rows()) {
        if (row.repeat > 0) withRepeat = true;
        // Each row's latency counts once even though it appears in one case per eval.
        totals.latencyMs += row.latencyMs ?? 0;
        for (const testCase of testCases(row, info.evalNames, false)) {
          totals.tests += 1;
          if (testCase.failure !== undefined) totals.failures += 1;
          if (testCase.error !== undefined) totals.errors += 1;
        }
      }
      const counts = `tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds(info.durationMs ?? totals.latencyMs)}"`;
      out.write(
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agentmark" ${counts}>\n  <testsuite name="${xmlEscape(info.promptPath)}" ${counts}>\n`,
      );
      for await (const row of rows()) {
        for (const testCase of testCases(row, info.evalNames, withRepeat)) out.write(`${caseXml(testCase, info.promptName)}\n`);
      }
      out.write('  </testsuite>\n</testsuites>\n');
    },
  };
}
