import { AgentmarkError } from '../errors/index.js';
import { openRunFolder } from '../store/index.js';
import { DEFAULT_COMPARE_SHOW, MAX_COMPARE_SHOW, type CompareResponse } from './api-types.js';
import type { RunCatalog } from './run-catalog.js';

export type CompareOutcome = { ok: true; result: CompareResponse } | { ok: false; status: 400 | 404; error: string };

/** Comparisons of finished runs never change: the last few are kept, keyed by ids and `show`. */
const KEPT = 8;
const cache = new WeakMap<RunCatalog, Map<string, Promise<CompareResponse>>>();

/** `show` as the page asks for it: a whole number up to MAX_COMPARE_SHOW, else the CLI's default. */
export function parseShow(text: string | null): number | undefined {
  if (text === null || text === '') return DEFAULT_COMPARE_SHOW;
  if (!/^\d{1,4}$/.test(text)) return undefined;
  const show = Number(text);
  return show <= MAX_COMPARE_SHOW ? show : undefined;
}

/**
 * Two runs of the catalog compared by src/compare with the CLI's defaults (seed 0, 10,000
 * resamples, alpha 0.05), so the page shows exactly what `agentmark compare <base> <head>
 * --format json` prints. Ids must name listed run folders; a run without a summary is a 400
 * with the same message the CLI gives.
 */
export async function compareInCatalog(catalog: RunCatalog, base: string, head: string, show: number): Promise<CompareOutcome> {
  if (!(await catalog.exists(base)) || !(await catalog.exists(head))) return { ok: false, status: 404, error: 'not found' };
  let kept = cache.get(catalog);
  if (!kept) cache.set(catalog, (kept = new Map()));
  const key = `${base}/${head}/${show}`;
  let pending = kept.get(key);
  if (!pending) {
    pending = (async () => {
      const { compareRuns } = await import('../compare/index.js');
      const [b, h] = await Promise.all([catalog.folder(base).then(openRunFolder), catalog.folder(head).then(openRunFolder)]);
      return compareRuns(b, h, { projectRoot: catalog.projectRoot, maxChangedRows: show });
    })();
    kept.set(key, pending);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  }
  try {
    return { ok: true, result: await pending };
  } catch (error) {
    kept.delete(key);
    if (error instanceof AgentmarkError) return { ok: false, status: 400, error: error.hint ? `${error.message} (${error.hint})` : error.message };
    throw error;
  }
}
