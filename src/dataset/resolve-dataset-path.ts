import { statSync } from 'node:fs';
import * as path from 'node:path';
import { DatasetError, type SourceLocation } from '../errors/index.js';
import { outsideScope, projectScope } from '../project/path-scope.js';
import type { Project } from '../project/types.js';

/**
 * Finds `test_settings.dataset` on disk: relative to the prompt file's folder first, then to
 * the project's prompt root (`<agentmarkPath>/agentmark`, or agentmarkPath without that
 * folder), then to the project root. AgentMark resolves against its `agentmark/` folder, so
 * `./datasets/x.jsonl` finds `agentmark/datasets/x.jsonl` from a prompt in any subfolder;
 * looking next to the prompt first lets a prompt carry its data.
 * The file found must lie inside the project (or an `allowedPaths` folder) once symlinks are
 * followed. `location` is where the prompt names the dataset (`prompt.locate(['test_settings', 'dataset'])`).
 */
export function resolveDatasetPath(dataset: string, promptPath: string, project: Project, location: SourceLocation = { file: promptPath }): string {
  if (!dataset.endsWith('.jsonl')) {
    throw new DatasetError('DATASET_NOT_JSONL', `dataset "${dataset}" must be a .jsonl file`, {
      location,
      hint: 'datasets are JSON Lines: one {"input": {...}} object per line, in a file ending in .jsonl',
    });
  }
  const bases = path.isAbsolute(dataset) ? [''] : [path.dirname(path.resolve(promptPath)), project.promptRoot, project.root];
  const tried = [...new Set(bases.map((base) => path.resolve(base, dataset)))];
  const found = tried.find(isFile);
  if (found) {
    const outside = outsideScope(projectScope(project), found, dataset);
    if (outside) throw new DatasetError('DATASET_OUTSIDE_PROJECT', `dataset ${outside.message}`, { location, hint: outside.hint });
    return found;
  }
  const folder = tried.find(isFolder);
  if (folder) {
    throw new DatasetError('DATASET_NOT_A_FILE', `dataset "${dataset}" is a folder, not a .jsonl file: ${folder}`, { location });
  }
  throw new DatasetError('DATASET_NOT_FOUND', `dataset "${dataset}" not found; tried ${tried.join(', ')}`, {
    location,
    hint: 'test_settings.dataset is resolved next to the prompt file, then from agentmarkPath, then from the project root',
  });
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
