import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { fileAt } from './git.js';
import { basePath, type BaseTree } from './plan-prompts.js';

/**
 * Whether every file is byte for byte the same in the working tree and at the base commit. Given
 * the files a prompt's run reads (the prompt and what it loads, its dataset, `agentmark.json` and
 * the config), the base's run would send the same requests to the same cache and score the
 * answers with the same code, so the head's run stands for both. A file outside the repository,
 * or missing on either side, is a difference.
 */
export async function sameFilesAtBase(projectRoot: string, files: readonly string[], tree: BaseTree): Promise<boolean> {
  for (const file of new Set(files)) {
    const path = relative(projectRoot, file).split(sep).join('/');
    if (path.startsWith('..')) return false;
    const [head, base] = await Promise.all([readFile(file).catch(() => undefined), fileAt(tree.top, tree.commit, basePath(tree, path))]);
    if (head === undefined || base === undefined || !head.equals(base)) return false;
  }
  return true;
}
