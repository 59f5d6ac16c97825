import { join } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { RowFilter } from '../dataset/row-filter.js';
import type { RowSelection } from '../dataset/types.js';
import type { CacheMode, RunExperimentOptions } from '../experiment/options.js';
import type { LoadedConfig, Project } from '../project/index.js';
import { fingerprintFile, type StoredRun } from '../store/index.js';
import { loadStoredPrompt } from './stored-prompt.js';

/** What `runExperiment` needs to run a stored run again, without the listeners and signals. */
export type RerunOptions = Omit<RunExperimentOptions, 'onEvent' | 'signal' | 'env'>;

/**
 * The config files (agentmark.json, agentmark.config.*) that differ from the run's: a rerun
 * uses today's scorers, score schemas and filters, so its scores may differ from the run's.
 */
export async function changedConfig(projectRoot: string, run: StoredRun): Promise<string[]> {
  const changed: string[] = [];
  for (const file of run.manifest.provenance?.config ?? []) {
    const now = await fingerprintFile(projectRoot, join(projectRoot, file.path)).catch(() => undefined);
    if (now?.hash !== file.hash) changed.push(file.path);
  }
  return changed;
}

const CACHE_MODES: readonly CacheMode[] = ['use', 'off', 'only'];

/**
 * The options that run a past run's stored prompt again over the same rows: its dataset (which
 * must be unchanged), selection, filter, shard, repeats, model and settings, as its manifest
 * recorded them. USAGE_DATASET_CHANGED when the dataset's hash differs from the run's (the same
 * selection would pick other rows); STORE_NO_PROVENANCE for a run that did not keep its prompt.
 */
export async function rerunOptions(project: Project, config: LoadedConfig, run: StoredRun): Promise<RerunOptions> {
  const { manifest } = run;
  const files = manifest.provenance?.files;
  const prompt = await loadStoredPrompt(project.root, manifest, config.filters ? { filters: config.filters } : {});
  if (!manifest.dataset) {
    throw new UsageError('USAGE_NO_DATASET', `run ${manifest.id} recorded no dataset, so its rows cannot be run again`);
  }
  const datasetPath = join(project.root, manifest.dataset.path);
  const now = await fingerprintFile(project.root, datasetPath).catch(() => undefined);
  if (now?.hash !== manifest.dataset.hash) {
    throw new UsageError(
      'USAGE_DATASET_CHANGED',
      now === undefined
        ? `gone since run ${manifest.id}: its rows cannot be run again`
        : `changed since run ${manifest.id} (sha256 ${manifest.dataset.hash.slice(0, 12)} then, ${now.hash.slice(0, 12)} now): the same selection would not run the same rows`,
      { location: { file: datasetPath }, hint: 'restore the dataset as it was (e.g. from git), or run the prompt afresh with run-experiment' },
    );
  }
  const o = manifest.options;
  const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
  const cacheMode = CACHE_MODES.find((mode) => mode === o.cacheMode);
  const maxRetries = number(o['maxRetries']);
  const threshold = number(o.threshold);
  const judgeModel = typeof o['judgeModel'] === 'string' ? o['judgeModel'] : undefined;
  // The config agent the run used (`--agent`, or the prompt's test_settings.agent), run again.
  const agent = typeof o['agent'] === 'string' ? o['agent'] : undefined;
  const filter = o['filter'] as RowFilter | undefined;
  return {
    project,
    config,
    promptPath: prompt.path,
    prompt,
    rerunOf: { id: manifest.id, files: files ?? [] },
    datasetPath,
    model: manifest.model,
    concurrency: number(o.concurrency) ?? 20,
    timeoutMs: number(o['timeoutMs']) ?? 60_000,
    repeat: number(o.repeat) ?? 1,
    selection: (o.selection as RowSelection | undefined) ?? { kind: 'all' },
    skipEval: o['skipEval'] === true,
    evalTimeoutMs: number(o['evalTimeoutMs']) ?? 30_000,
    ...(cacheMode ? { cacheMode } : {}),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(threshold === undefined ? {} : { threshold }),
    ...(judgeModel === undefined ? {} : { judgeModel }),
    ...(agent === undefined ? {} : { agent }),
    ...(filter ? { filter } : {}),
    ...(number(o['warmup']) ? { warmup: number(o['warmup']) as number } : {}),
    ...(number(o['warmupRepeats']) ? { warmupRepeats: number(o['warmupRepeats']) as number } : {}),
    ...(manifest.shard ? { shard: { index: manifest.shard.index, count: manifest.shard.count } } : {}),
  };
}
