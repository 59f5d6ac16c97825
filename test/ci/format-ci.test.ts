import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, formatCiMarkdown } from '../../src/ci/index.js';
import { ciExitCode } from '../../src/ci/ci-exit-code.js';
import type { CiPromptResult, CiReport } from '../../src/ci/index.js';

const side = (passed: boolean): NonNullable<CiPromptResult['head']> => ({ runId: 'r', rows: 3, errored: 0, cached: 3, passed, evals: [{ name: 'exact', passRate: 1, passRateCi95: [0.439, 1] }] });
const report = (prompts: CiPromptResult[], exitCode = 0): CiReport => ({ version: 1, base: { ref: 'main', commit: 'a'.repeat(40), tried: ['main'] }, prompts, exitCode });

describe('formatCiMarkdown', () => {
  it('a table too long for one comment loses its last lines, and the note names them', () => {
    const prompts = Array.from({ length: 1200 }, (_, i) => ({ path: `prompts/p${String(i).padStart(4, '0')}.prompt.mdx`, verdict: 'new' as const, head: side(true) }));
    const whole = formatCiMarkdown(report(prompts), Infinity);
    expect(whole.length).toBeGreaterThan(COMMENT_LIMIT);
    const cut = formatCiMarkdown(report(prompts));
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    const lines = cut.split('\n').filter((line) => line.startsWith('| 🆕 |'));
    const note = cut.split('\n').find((line) => line.startsWith('> ✂️')) ?? '';
    expect(note).toMatch(new RegExp(`^> ✂️ Cut to fit GitHub's 65,536-character comment limit; left out: ${1200 - lines.length} table lines \\(prompts/p${String(lines.length).padStart(4, '0')}\\.prompt\\.mdx, `));
    expect(lines.length).toBeGreaterThan(100);
    // What is kept is the table's start, whole lines only.
    expect(lines[0]).toBe('| 🆕 | `prompts/p0000.prompt.mdx` | **new** | exact: 100.0% [43.9–100.0] | 3 | $0.0000 |');
    expect(whole.startsWith(cut.slice(0, cut.indexOf(lines.at(-1) as string)))).toBe(true);
  });

  it('under the limit nothing is cut and there is no note', () => {
    const text = formatCiMarkdown(report([{ path: 'prompts/a.prompt.mdx', verdict: 'unchanged', head: side(true), base: { ...side(true), source: 'head' } }]));
    expect(text).toBe(
      [
        '<!-- agentmark-ci -->',
        '### ✅ AgentMark CI: 1 unchanged',
        '',
        'base `main` (`aaaaaaaaaaaa`) → head (the working tree); exit 0: no prompt regressed and every head gate passed.',
        '',
        '| | Prompt | Verdict | Evals: base → head (95% interval) | Rows | Cost |',
        '|---|---|---|---|---|---|',
        '| ➖ | `prompts/a.prompt.mdx` | **unchanged** | exact: 100.0% [43.9–100.0] (same) | 3 | $0.0000 |',
        '',
      ].join('\n'),
    );
  });
});

describe('ciExitCode', () => {
  const rules = { allowMissingBase: false, failOnInconclusive: false, interrupted: false };
  it('2 over 1 over 0; no base only without --allow-missing-base; inconclusive only with --fail-on-inconclusive', () => {
    const of = (verdict: CiPromptResult['verdict'], passed = true): CiPromptResult => ({ path: 'p', verdict, head: side(passed) });
    expect(ciExitCode({ prompts: [of('no regression'), of('unchanged'), of('new')] }, rules)).toBe(0);
    expect(ciExitCode({ prompts: [of('regressed')] }, rules)).toBe(1);
    expect(ciExitCode({ prompts: [of('unchanged', false)] }, rules)).toBe(1);
    expect(ciExitCode({ prompts: [of('inconclusive')] }, rules)).toBe(0);
    expect(ciExitCode({ prompts: [of('inconclusive')] }, { ...rules, failOnInconclusive: true })).toBe(1);
    expect(ciExitCode({ prompts: [of('regressed'), of('no base')] }, rules)).toBe(2);
    expect(ciExitCode({ prompts: [of('no base')] }, { ...rules, allowMissingBase: true })).toBe(0);
    expect(ciExitCode({ prompts: [of('unfinished')] }, { ...rules, allowMissingBase: true })).toBe(2);
    expect(ciExitCode({ prompts: [of('regressed')] }, { ...rules, interrupted: true })).toBe(130);
  });
});
