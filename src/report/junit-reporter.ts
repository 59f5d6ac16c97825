import type { RowResult } from '../experiment/types.js';
import { formatEvalCell } from './format-eval-cell.js';
import { sortRows, rowLabel } from './sort-rows.js';
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

/** JUnit XML for CI: one test case per row × eval; failures are FAIL verdicts, errors are errors. */
export function createJunitReporter(out: OutputStream): Reporter {
  const rows: RowResult[] = [];
  return {
    onRowEnd(row) {
      rows.push(row);
    },
    onRunEnd(_summary, info) {
      const withRepeat = rows.some((row) => row.repeat > 0);
      const cases = sortRows(rows).flatMap((row) => testCases(row, info.evalNames, withRepeat));
      const failures = cases.filter((c) => c.failure !== undefined).length;
      const errors = cases.filter((c) => c.error !== undefined).length;
      // Each row's latency counts once even though it appears in one case per eval.
      const time = info.durationMs ?? rows.reduce((sum, row) => sum + (row.latencyMs ?? 0), 0);
      const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}" time="${seconds(time)}"`;
      const lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="agentmark" ${counts}>`,
        `  <testsuite name="${xmlEscape(info.promptPath)}" ${counts}>`,
        ...cases.map((testCase) => caseXml(testCase, info.promptName)),
        '  </testsuite>',
        '</testsuites>',
      ];
      out.write(`${lines.join('\n')}\n`);
    },
  };
}
