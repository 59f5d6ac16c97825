// The comparison and its grid are loaded only when several runs ended (kept off every run's start-up).
import type { CompareResult } from '../compare/index.js';
import type { RunSummary } from '../experiment/types.js';
import { createProviderRegistry } from '../model/index.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import { openRunFolder } from '../store/index.js';
import { projectPath } from './project-path.js';
import { LARGE_RUN } from '../report/large-run.js';

/** One run the command makes: a prompt, and the model overriding its own when several are compared. */
export interface Experiment {
  promptPath: string;
  model?: string;
  label: string;
}

/**
 * Every prompt × every `--model` (or, without the flag, every model of the prompt's
 * `test_settings.models`; else the prompt's own model), labelled by what varies.
 */
export function experimentsOf(promptPaths: readonly string[], models: readonly string[], project: Project, promptModels: ReadonlyMap<string, readonly string[]> = new Map()): Experiment[] {
  const modelsOf = (path: string): readonly string[] => (models.length > 0 ? models : (promptModels.get(path) ?? []));
  const several = promptPaths.some((path) => modelsOf(path).length > 1);
  return promptPaths.flatMap((promptPath) => {
    const prompt = projectPath(project, project.root, promptPath);
    const own = modelsOf(promptPath);
    if (own.length === 0) return [{ promptPath, label: prompt }];
    if (own.length === 1 && !several) {
      // One --model reaches the run through its settings; the one model of a prompt's list is its override here.
      return [models.length > 0 ? { promptPath, label: prompt } : { promptPath, model: own[0] as string, label: prompt }];
    }
    return own.map((model) => ({ promptPath, model, label: promptPaths.length > 1 ? `${prompt} · ${model}` : model }));
  });
}

/** Every model named on the command line must have a provider: checked before the first run starts. */
export function checkModels(models: readonly string[], config: LoadedConfig, projectRoot?: string, where: (model: string) => string = (model) => `--model ${model}`): void {
  const registry = createProviderRegistry({ providers: config.providers ?? {}, env: {}, ...(projectRoot === undefined ? {} : { projectRoot }) });
  for (const model of models) registry.ensure(model, where(model));
}

export interface FinishedExperiment {
  label: string;
  runId: string;
  runDir: string;
  summary: RunSummary;
}

/** The paired comparison of every run against the first. */
export async function compareWithFirst(runs: readonly FinishedExperiment[], alpha: number): Promise<CompareResult[]> {
  const [first, ...rest] = runs;
  if (!first) return [];
  const { compareRuns } = await import('../compare/index.js');
  const base = await openRunFolder(first.runDir);
  const out: CompareResult[] = [];
  for (const run of rest) out.push(await compareRuns(base, await openRunFolder(run.runDir), { alpha }));
  return out;
}

/** Rows of the results grid run-experiment ends with; the rest are counted. */
export const RUN_GRID_ROWS = 100;

/**
 * The results grid of the runs (rows side by side, one column per run), for the table after the
 * side-by-side summary; the statistics are the comparisons already made, not computed again.
 */
export async function runsGrid(runs: readonly FinishedExperiment[], comparisons: CompareResult[], options: { truncate: number; width?: number; allRows?: boolean }): Promise<string> {
  const [{ buildGrid }, { formatGridTable }] = await Promise.all([import('../compare/index.js'), import('../report/compare/index.js')]);
  const opened = await Promise.all(runs.map((run) => openRunFolder(run.runDir)));
  // Above 50 rows in all, the rows where some run failed, the first 50 (as each run's own table).
  const large = options.allRows !== true && runs.reduce((sum, run) => sum + run.summary.rows, 0) > LARGE_RUN;
  const grid = await buildGrid(opened, { comparisons, limit: large ? LARGE_RUN : RUN_GRID_ROWS, ...(large ? { failed: true } : {}) });
  const table = formatGridTable(grid, { statistics: false, truncate: options.truncate, ...(options.width === undefined ? {} : { width: options.width }) });
  return large ? `${table}Every row: --all-rows, or compare ${runs.map((run) => run.runId).join(' ')} -o grid.html.\n` : table;
}
