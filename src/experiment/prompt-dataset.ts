import { relative } from 'node:path';
import { resolveDatasetPath } from '../dataset/index.js';
import { DatasetError } from '../errors/index.js';
import type { LoadedPrompt } from '../prompt/index.js';
import type { RunExperimentOptions } from './options.js';

/**
 * The dataset a run reads: `--dataset` when given, otherwise the prompt's
 * `test_settings.dataset` (then errors point at that frontmatter line).
 */
export function datasetOf(dataset: string | undefined, prompt: LoadedPrompt, project: RunExperimentOptions['project'], fromFrontmatter: boolean): string {
  if (!dataset) {
    throw new DatasetError('DATASET_NOT_SET', 'this prompt has no test_settings.dataset to run an experiment on', {
      location: { file: relative(project.root, prompt.path) },
      hint: 'add `test_settings: { dataset: ./my-data.jsonl }` to the frontmatter',
    });
  }
  return resolveDatasetPath(dataset, prompt.path, project, fromFrontmatter ? prompt.locate(['test_settings', 'dataset']) : undefined);
}
