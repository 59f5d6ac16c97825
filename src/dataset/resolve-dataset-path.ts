import { statSync } from 'node:fs';
import * as path from 'node:path';
import { DatasetError } from '../errors/index.js';
import type { Project } from '../project/types.js';

/**
 * Finds `test_settings.dataset` on disk: relative to the prompt file's folder first, then to
 * the project's prompt root (agentmarkPath), then to the project root. AgentMark resolves
 * against the prompt root; looking next to the prompt first lets a prompt carry its data.
 */
export function resolveDatasetPath(dataset: string, promptPath: string, project: Project): string {
  if (!dataset.endsWith('.jsonl')) {
    throw new DatasetError('DATASET_NOT_JSONL', `dataset "${dataset}" must be a .jsonl file`, {
      location: { file: promptPath },
      hint: 'datasets are JSON Lines: one {"input": {...}} object per line, in a file ending in .jsonl',
    });
  }
  const bases = path.isAbsolute(dataset) ? [''] : [path.dirname(path.resolve(promptPath)), project.promptRoot, project.root];
  const tried = [...new Set(bases.map((base) => path.resolve(base, dataset)))];
  const found = tried.find(isFile);
  if (found) return found;
  const folder = tried.find(isFolder);
  if (folder) {
    throw new DatasetError('DATASET_NOT_A_FILE', `dataset "${dataset}" is a folder, not a .jsonl file: ${folder}`, { location: { file: promptPath } });
  }
  throw new DatasetError('DATASET_NOT_FOUND', `dataset "${dataset}" not found; tried ${tried.join(', ')}`, {
    location: { file: promptPath },
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
