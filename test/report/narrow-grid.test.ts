import { describe, expect, it } from 'vitest';
import { buildGrid } from '../../src/compare/grid.js';
import { formatGridTable } from '../../src/report/compare/index.js';
import { openRunFolder, RunStore } from '../../src/store/index.js';
import { makeRun, pass } from '../compare/make-run.js';
import { onTempDir } from '../store/fixtures.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => Array.from(line).length));

describe('the results grid at 80 columns', () => {
  it('three runs with two evals each: fits, the eval names cut as a last resort, every verdict whole (the whole 300-column table was printed)', async () => {
    const input = { message: 'I want my money back for the broken kettle.', labels: ['refund', 'shipping', 'account', 'product_question', 'other'] };
    const ids: string[] = [];
    for (const [i, prompt] of ['prompts/classify-intent.prompt.mdx', 'prompts/classify-intent-v2.prompt.mdx', 'prompts/classify-intent-v3.prompt.mdx'].entries()) {
      const id = `20261130-10000${i}.000-abcdef`;
      await makeRun(root, { id, prompt, evalNames: ['exact_intent', 'known_intent'], rows: [{ input, output: 'refund', evals: { exact_intent: pass(), known_intent: pass('output "refund" is one of: refund, shipping, account') } }] });
      ids.push(id);
    }
    const store = new RunStore(root);
    const runs = await Promise.all(ids.map((id) => openRunFolder(store.runDir(id))));
    const grid = await buildGrid(runs);
    const whole = formatGridTable(grid, {});
    const fitted = formatGridTable(grid, { width: 80 });
    expect(widest(whole)).toBeGreaterThan(200);
    expect(widest(fitted)).toBeLessThanOrEqual(80);
    // The prose above the table wraps to 80.
    const table = fitted.split('\n').filter((line) => /^[┌│├└]/.test(line));
    expect(widest(fitted.split('\n').filter((line) => !/^[┌│├└]/.test(line)).join('\n'))).toBeLessThanOrEqual(80);
    expect(table.join('\n')).toContain('exa… PASS · kno… PASS');
  });
});
