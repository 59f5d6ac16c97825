import { valueWithInterval } from '../report/compare/format-numbers.js';
import type { CiPromptResult, CiVerdict } from './types.js';

/** Each eval of a prompt as `name: base → head`, rates or means with their 95% intervals. */
export function evalLines(result: CiPromptResult): string[] {
  // Compared prompts show the paired rows' figures (what the gate tested); others each run's own.
  if (result.comparison) {
    return result.comparison.evals.map((e) => {
      const rate = e.kind === 'verdict';
      const side = (s: typeof e.base): string => (rate ? valueWithInterval(s.passRate, s.passRateCi95) : valueWithInterval(s.meanScore, s.meanScoreCi95));
      return `${e.name}: ${side(e.base)} → ${side(e.head)}`;
    });
  }
  const head = result.head?.evals ?? [];
  const base = result.verdict === 'unchanged' ? undefined : result.base?.evals;
  return head.map((e) => {
    const value = (s: typeof e | undefined): string => (!s ? '—' : s.passRate !== undefined ? valueWithInterval(s.passRate, s.passRateCi95) : valueWithInterval(s.meanScore, s.meanScoreCi95));
    if (result.verdict === 'unchanged') return `${e.name}: ${value(e)} (same)`;
    return base === undefined ? `${e.name}: ${value(e)}` : `${e.name}: ${value(base.find((b) => b.name === e.name))} → ${value(e)}`;
  });
}

/** Rows as `base → head`, or one side's. */
export function rowsText(result: CiPromptResult): string {
  const { base, head } = result;
  if (head && base && result.verdict !== 'unchanged') return `${base.rows} → ${head.rows}`;
  return String((head ?? base)?.rows ?? '—');
}

/** The order prompts are listed in a summary line. */
export const VERDICT_ORDER: readonly CiVerdict[] = ['regressed', 'error', 'unfinished', 'no base', 'inconclusive', 'no regression', 'new', 'removed', 'unchanged'];

/** `1 regressed, 1 new, 1 removed, 1 unchanged`. */
export function verdictCounts(prompts: readonly CiPromptResult[]): string {
  return VERDICT_ORDER.map((verdict) => [verdict, prompts.filter((p) => p.verdict === verdict).length] as const)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${verdict}`)
    .join(', ');
}

/** Why the exit code is what it is, in one line. */
export function exitLine(exitCode: number, prompts: readonly CiPromptResult[]): string {
  const named = (paths: string[]): string => paths.join(', ');
  if (exitCode === 0) return 'exit 0: no prompt regressed and every head gate passed';
  if (exitCode === 130) return 'exit 130: interrupted';
  if (exitCode === 2) {
    const unchecked = prompts.filter((p) => p.verdict === 'no base' || p.verdict === 'error' || p.verdict === 'unfinished').map((p) => `${p.path} (${p.verdict})`);
    return `exit 2: not every prompt could be checked: ${named(unchecked)}`;
  }
  const parts: string[] = [];
  const regressed = prompts.filter((p) => p.verdict === 'regressed').map((p) => p.path);
  const failedHeads = prompts.filter((p) => p.head !== undefined && !p.head.passed).map((p) => p.path);
  if (regressed.length > 0) parts.push(`regressed: ${named(regressed)}`);
  if (failedHeads.length > 0) parts.push(`head gates failed: ${named(failedHeads)}`);
  if (parts.length === 0) parts.push(`inconclusive (--fail-on-inconclusive): ${named(prompts.filter((p) => p.verdict === 'inconclusive').map((p) => p.path))}`);
  return `exit ${exitCode}: ${parts.join('; ')}`;
}
