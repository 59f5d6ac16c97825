import type { RowResult } from '../../src/experiment/types.js';
import { tempProject } from '../helpers/temp-project.js';
import { row, writeRun } from './synthetic-run.js';

/** A run judged by an LLM judge ("helpful") and checked by a regex ("short"), for the review tests. */
export const REVIEW_RUN = '20261201-100000.000-aaaaaa';

export const REVIEW_PROJECT = {
  'agentmark.json': JSON.stringify({
    agentmarkPath: '.',
    scores: {
      helpful: { type: 'boolean', scorer: 'llm_judge', description: 'The answer helps.' },
      short: { type: 'boolean', scorer: 'regex', options: { pattern: '^.{0,40}$' } },
      tone: { type: 'categorical', scorer: 'llm_judge', categories: [{ label: 'kind', value: 1 }, { label: 'curt', value: 0 }] },
      stars: { type: 'numeric', min: 0, max: 5 },
    },
  }),
};

/** Reasons: rows 1 and 4 voice doubt ("not sure", "possibly"). */
const REASONS = ['clearly helpful', 'I am not sure this answers it', 'helpful', 'does not help', 'possibly helpful', 'helpful', 'off topic', 'helpful'];

export const EVAL_NAMES = ['helpful', 'short', 'tone', 'stars'];

export function reviewRows(): RowResult[] {
  return REASONS.map((reason, i) => {
    const passed = !/does not|off topic/.test(reason);
    return row(i, {
      evals: {
        helpful: { passed, score: passed ? 1 : 0, normalized: passed ? 1 : 0, reason },
        short: { passed: true, score: 1, normalized: 1 },
        tone: { label: i % 3 === 0 ? 'curt' : 'kind', score: i % 3 === 0 ? 0 : 1, normalized: i % 3 === 0 ? 0 : 1, reason: 'tone' },
        stars: { score: i % 6, normalized: (i % 6) / 5 },
      },
    });
  });
}

export async function reviewProject(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const project = await tempProject(REVIEW_PROJECT);
  await writeRun(project.dir, { id: REVIEW_RUN, evalNames: EVAL_NAMES, rows: reviewRows() });
  return project;
}
