import { readdirSync, statSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { closestMatch, DatasetError, type SourceLocation } from '../errors/index.js';
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
  // Only places the dataset could be read from: a path outside the project is refused anyway,
  // and listing it would only send the reader looking there.
  const scope = projectScope(project);
  const inside = tried.filter((file) => outsideScope(scope, file, dataset) === undefined);
  const how = 'test_settings.dataset is resolved next to the prompt file, then from agentmarkPath, then from the project root';
  const close = path.isAbsolute(dataset) ? undefined : closestDataset(dataset, bases, project.root);
  throw new DatasetError('DATASET_NOT_FOUND', `dataset "${dataset}" not found${inside.length > 0 ? `; tried ${inside.join(', ')}` : ' inside the project'}`, {
    location,
    hint: close === undefined ? how : `did you mean "${close}"? (${how})`,
  });
}

/** Folders never searched for a dataset to suggest: dependencies, VCS data, our own store. */
const SKIPPED = new Set(['node_modules', '.git', '.agentmark']);
/** Enough for any real project's datasets; a huge tree is not walked to the end for a hint. */
const MAX_ENTRIES = 5000;

/**
 * The `.jsonl` file of the project closest to what was written, written as it would be from
 * whichever base (prompt folder, agentmarkPath, root) gives the closest spelling.
 */
function closestDataset(dataset: string, bases: readonly string[], root: string): string | undefined {
  const files = jsonlFiles(root);
  const dotted = dataset.startsWith('./');
  const spellings = new Map<string, string>();
  for (const base of bases) {
    for (const file of files) {
      let written = path.relative(base, file).split(path.sep).join('/');
      if (dotted && !written.startsWith('.')) written = `./${written}`;
      if (!spellings.has(written)) spellings.set(written, written);
    }
  }
  return closestMatch(dataset, spellings.keys());
}

function jsonlFiles(root: string): string[] {
  const found: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const folder = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) pending.push(path.join(folder, entry.name));
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path.join(folder, entry.name));
    }
  }
  return found;
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
