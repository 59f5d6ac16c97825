import type { RunSummary } from '../experiment/types.js';

/**
 * Count keys of an eval's summary as the json report names them. In the run store (and so in
 * the library's `EvalSummary`) they are `passCount` (results with a verdict) and `passed`
 * (results that passed), which read alike and sit beside the run's boolean `passed`; the report
 * names both as counts. Old manifests keep the old names, so only the report renames.
 */
const RENAMED: Readonly<Record<string, string>> = { passCount: 'verdictCount', passed: 'passedCount' };

/** The summary as the json report writes it: same values, eval counts renamed, key order kept. */
export function jsonSummary(summary: RunSummary): Record<string, unknown> {
  return {
    ...summary,
    evals: summary.evals.map((evalSummary) => Object.fromEntries(Object.entries(evalSummary).map(([key, value]) => [RENAMED[key] ?? key, value]))),
  };
}
