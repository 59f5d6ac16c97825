import { AgentmarkError } from '../errors/index.js';
import { openRunFolder } from '../store/index.js';
import type { GridResponse } from './api-types.js';
import type { RunCatalog } from './run-catalog.js';

export type GridOutcome = { ok: true; result: GridResponse } | { ok: false; status: 400 | 404; error: string };

/** The most runs one grid request may name. */
export const MAX_GRID_RUNS = 8;

/**
 * Runs of the catalog side by side (`/api/grid/<base>/<head>/<head>…`), built by src/compare's
 * `buildGrid` with the CLI's defaults, so the page shows what `agentmark compare A B C --format
 * json` prints.
 */
export async function gridInCatalog(catalog: RunCatalog, ids: readonly string[]): Promise<GridOutcome> {
  if (ids.length < 2 || ids.length > MAX_GRID_RUNS) return { ok: false, status: 400, error: `a grid takes 2 to ${MAX_GRID_RUNS} runs` };
  for (const id of ids) if (!(await catalog.exists(id))) return { ok: false, status: 404, error: 'not found' };
  try {
    const { buildGrid } = await import('../compare/index.js');
    const runs = await Promise.all(ids.map((id) => catalog.folder(id).then(openRunFolder)));
    return { ok: true, result: await buildGrid(runs, { projectRoot: catalog.projectRoot }) };
  } catch (error) {
    if (error instanceof AgentmarkError) return { ok: false, status: 400, error: error.hint ? `${error.message} (${error.hint})` : error.message };
    throw error;
  }
}
