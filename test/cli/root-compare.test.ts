import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { exampleProject } from '../view/example-project.js';
import { normalize } from './cli-project.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('the README walkthrough: two recorded variants compared offline', () => {
  it('shows improved and regressed rows with no OpenAI settings', async () => {
    const { dir, cleanup } = await exampleProject();
    cleanups.push(cleanup);
    for (const prompt of ['prompts/classify-intent.prompt.mdx', 'prompts/classify-intent-v2.prompt.mdx']) {
      const run = await runCli(['run-experiment', prompt, '--quiet', '--format', 'jsonl'], { cwd: dir, env: {} });
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toMatch(/"errorCode":"/);
    }
    const result = await runCli(['compare', 'latest~1', 'latest'], { cwd: dir, env: { COLUMNS: '300' } });
    expect(result.code).toBe(0);
    const out = normalize(result.stdout);
    expect(out).toContain('    prompt: prompts/classify-intent.prompt.mdx ');
    expect(out).toContain('│ exact_intent (pass rate) │ 91.7% [61.5–99.8] │ 83.3% [51.6–97.9]   │ −8.3 pts [−38.2, +22.7] │');
    expect(out).toContain('Changed rows: 2 regressed, 1 improved');
    expect(out).toContain('▼ regressed #5  input: {"message":"Please refund order A-1042."');
    expect(out).toContain('▲ improved #11  input: {"message":"Can I delete my account?"');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'Regression check: ? inconclusive: exact_intent: no significant drop, but smallest detectable drop 57.8 points > max drop 5; about 805 more paired rows needed to detect a 5-point drop (817 in all); ' +
        'known_intent: no significant drop, but smallest detectable drop 57.8 points > max drop 5; about 265 more paired rows needed to detect a 5-point drop (277 in all)',
    );
  }, 60_000);
});
