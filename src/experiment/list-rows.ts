import { relative } from 'node:path';
import { readDataset, rowLabels, selectRows } from '../dataset/index.js';
import { UsageError } from '../errors/index.js';
import { loadPrompt } from '../prompt/index.js';
import type { RunExperimentOptions } from './options.js';
import { planRows } from './plan-rows.js';
import { datasetOf } from './prompt-dataset.js';

/** One selected row as `--list` shows it. */
export interface ListedRow {
  index: number;
  name?: string;
  tags: string[];
  input: Record<string, unknown>;
}

export interface RowListing {
  promptPath: string;
  datasetPath: string;
  datasetRows: number;
  rows: ListedRow[];
}

/**
 * The rows a run with these options would take, without running anything (`--list`). The same
 * plan as the run (filter, then sampling), so what is listed is what runs. An empty selection is
 * a usage error, as it would be for the run.
 */
export async function listRows(options: RunExperimentOptions): Promise<RowListing> {
  const { project, config } = options;
  const prompt = options.prompt ?? (await loadPrompt(options.promptPath, { project, filters: config.filters }));
  const datasetPath = datasetOf(options.datasetPath ?? prompt.testSettings.dataset, prompt, project, options.datasetPath === undefined);
  const plan = await planRows({
    datasetPath,
    projectRoot: project.root,
    inputSchema: prompt.inputSchema,
    ...(options.selection ? { selection: options.selection } : {}),
    ...(options.filter ? { filter: options.filter } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const rows: ListedRow[] = [];
  for await (const row of selectRows(readDataset(datasetPath, { inputSchema: prompt.inputSchema }), plan.selection, { total: plan.datasetRows })) {
    if (plan.only && !plan.only.has(row.index)) continue;
    const labels = rowLabels(row.metadata);
    rows.push({ index: row.index, ...(labels.name === undefined ? {} : { name: labels.name }), tags: labels.tags, input: row.input });
  }
  const file = relative(project.root, datasetPath);
  if (rows.length === 0) {
    throw new UsageError('USAGE_NO_ROWS_MATCHED', 'no rows matched the selection', { location: { file }, hint: 'widen --rows, --sample or --split' });
  }
  return { promptPath: relative(project.root, prompt.path), datasetPath: file, datasetRows: plan.datasetRows, rows };
}
