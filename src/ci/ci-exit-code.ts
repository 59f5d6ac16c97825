import type { CiReport } from './types.js';

export interface ExitRules {
  allowMissingBase: boolean;
  failOnInconclusive: boolean;
  interrupted: boolean;
}

/**
 * 130 interrupted; 2 when something could not be checked (a prompt with no base, unless
 * allowed; a head that could not run; prompts left unfinished by --max-cost); else 1 when a
 * prompt regressed (or was inconclusive, with --fail-on-inconclusive) or a head run's own gates
 * failed; else 0.
 */
export function ciExitCode(report: Pick<CiReport, 'prompts'>, rules: ExitRules): number {
  if (rules.interrupted) return 130;
  const verdicts = report.prompts.map((p) => p.verdict);
  if (verdicts.includes('error') || verdicts.includes('unfinished') || (!rules.allowMissingBase && verdicts.includes('no base'))) return 2;
  const failed = report.prompts.some(
    (p) => p.verdict === 'regressed' || (rules.failOnInconclusive && p.verdict === 'inconclusive') || (p.head !== undefined && !p.head.passed),
  );
  return failed ? 1 : 0;
}
