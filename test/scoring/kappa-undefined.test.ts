import { describe, expect, it } from 'vitest';
import { evalAgreement, type VerdictPair } from '../../src/scoring/agreement/index.js';
import { formatAgreementMarkdown, formatAgreementTable } from '../../src/report/format-agreement-report.js';
import { agreementLine } from '../../src/report/format-agreement.js';
import type { RunAgreementReport } from '../../src/review/index.js';

const pairs = (judge: boolean[], human: boolean[]): VerdictPair[] => judge.map((j, i) => ({ judge: j, human: human[i] as boolean }));

function report(entry: ReturnType<typeof evalAgreement>): RunAgreementReport {
  return { evals: [entry], reviewers: [], ties: {}, labelledRows: entry.n, ownLabels: entry.n, carried: 0 } as unknown as RunAgreementReport;
}

describe('kappa where a rater gave one verdict only: undefined (no variation), in every format', () => {
  // The judge passes all 6 rows; people pass 4: pₒ = pₑ = 4/6, so κ = 0 exactly, a certain-looking
  // zero with a [0, 0] interval that only says the judge never varied.
  const constant = evalAgreement('tone', 'boolean', pairs([true, true, true, true, true, true], [true, true, true, true, false, false]));
  it('the figure: no value, no interval, the reason', () => {
    expect(constant.kappa).toEqual({ undefinedReason: 'no variation' });
    // Percent agreement is still defined: 4 of 6.
    expect(constant.percentAgreement.value).toBeCloseTo(4 / 6, 12);
  });
  it('table, markdown and the JSON the viewer API serves', () => {
    expect(agreementLine(constant)).toMatch(/^κ undefined \(no variation\), agree 66\.7%/);
    expect(formatAgreementTable('run-1', report(constant))).toContain('tone  κ undefined (no variation), agree 66.7%');
    expect(formatAgreementMarkdown('run-1', report(constant))).toContain('| tone | 6 | undefined (no variation) |');
    expect(JSON.parse(JSON.stringify(constant)).kappa).toEqual({ undefinedReason: 'no variation' });
  });
  it('people who all said the same: undefined too', () => {
    expect(evalAgreement('tone', 'boolean', pairs([true, false, true], [true, true, true])).kappa).toEqual({ undefinedReason: 'no variation' });
  });
});

describe('perfect agreement on a handful of rows prints no zero-width interval', () => {
  it('5 rows, judge and people agree on each: κ 1 with an interval that says how little 5 rows show', () => {
    const perfect = evalAgreement('tone', 'boolean', pairs([true, false, true, false, true], [true, false, true, false, true]));
    expect(perfect.kappa.value).toBe(1);
    // kappaInterval of [[2, 0], [0, 3]]: scipy 1.17 / numpy (test/scoring/kappa-interval.test.ts).
    expect(perfect.kappa.ci95?.[0]).toBeCloseTo(-0.2278847813896886, 9);
    expect(perfect.kappa.ci95?.[1]).toBe(1);
    expect(agreementLine(perfect)).toMatch(/^κ 1\.00 \[-0\.23, 1\.00\]/);
  });
});
