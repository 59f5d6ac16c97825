import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/index.js';
import { fitProse } from '../../src/report/fit-prose.js';
import { formatCompareTable } from '../../src/report/compare/index.js';
import { fail, makeRun, pass } from '../compare/make-run.js';
import { onTempDir } from '../store/fixtures.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => Array.from(line).length));

describe('prose lines fitted to the width like the tables', () => {
  it('wraps at words with a hanging indent, cuts diff lines, leaves table lines', () => {
    const text = ['  hint: rows pair by their content (input, expected output, metadata); compare two runs of the same dataset', '+Classify the customer message by what they want done. Answer with one label only.', '│ a │'].join('\n');
    expect(fitProse(text, 40).split('\n')).toEqual([
      '  hint: rows pair by their content',
      '    (input, expected output, metadata);',
      '    compare two runs of the same dataset',
      '+Classify the customer message by what …',
      '│ a │',
    ]);
    expect(fitProse(text, undefined)).toBe(text);
  });

  it("compare's changed rows, run lines and reasons fit 80 columns", async () => {
    const input = { message: 'Please refund order A-1042, it arrived broken and the box was open', labels: ['refund', 'shipping', 'account', 'product_question', 'other'] };
    const reason = 'output "Account deletion" is not one of: refund, shipping, account, product_question, other';
    const base = await makeRun(root, { id: '20261130-100000.001-abcdef', evalNames: ['exact_intent'], rows: [{ input, output: 'refund', evals: { exact_intent: pass('output "refund" is one of: refund, shipping, account, product_question, other') } }] });
    const head = await makeRun(root, { id: '20261130-100000.002-abcdef', evalNames: ['exact_intent'], prompt: 'prompts/classify-intent-v2.prompt.mdx', rows: [{ input, output: 'Account deletion', evals: { exact_intent: fail(reason) } }] });
    const result = await compareRuns(base, head, { projectRoot: root });
    const wide = formatCompareTable(result, { truncate: 200 });
    expect(widest(wide)).toBeGreaterThan(80);
    const table = formatCompareTable(result, { truncate: 200, width: 80 });
    // All but the gate's line, which stays whole (CI logs are searched for it).
    const [gate, ...body] = table.trimEnd().split('\n').reverse();
    expect(gate).toMatch(/^Regression check: /);
    expect(widest(body.join('\n'))).toBeLessThanOrEqual(80);
    expect(table).toContain('\n      head: output "Account deletion" is not one of: refund, shipping, account,\n        product_question, other\n');
  });
});
