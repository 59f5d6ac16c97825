import { readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { Project } from '../project/types.js';
import { findPromptFiles } from '../prompt/index.js';
import { parseFrontmatter } from '../prompt/frontmatter.js';
import { fileAt, filesAt } from './git.js';

/** One prompt `ci` looks at: where it is at head (absent: removed) and whether base has it. */
export interface PlannedPrompt {
  /** Relative to the project root, with `/`. */
  path: string;
  /** Absolute, in the working tree; undefined when head has no such prompt with test_settings. */
  headFile?: string;
  /** Base has the prompt, with test_settings. */
  atBase: boolean;
}

/** Where the base is read: the repository (`prefix` is the project's folder in it) at `commit`. */
export interface BaseTree {
  top: string;
  prefix: string;
  commit: string;
}

const slash = (path: string): string => path.split(sep).join('/');

/**
 * The prompts to check, each present at head, at base or both: the `.prompt.mdx` files with
 * `test_settings` under the given files or folders (none given: the project's prompt folder),
 * looked up in the working tree and in the base commit's tree.
 */
export async function planPrompts(project: Project, cwd: string, given: readonly string[], base: BaseTree | undefined): Promise<PlannedPrompt[]> {
  const targets = given.length === 0 ? [project.promptRoot] : given.map((path) => resolve(cwd, path));
  const head = new Map<string, string>();
  const atBase = new Set<string>();
  for (const [i, target] of targets.entries()) {
    const rel = slash(relative(project.root, target));
    if (rel.startsWith('..')) throw new UsageError('USAGE_OUTSIDE_PROJECT', `${given[i] ?? target}: not inside the project (${project.root})`);
    const info = await stat(target).catch(() => undefined);
    const headFiles = info === undefined ? [] : info.isDirectory() ? await findPromptFiles(target) : [target];
    for (const file of headFiles) if (await hasTestSettings(file, await readFile(file, 'utf8'))) head.set(slash(relative(project.root, file)), file);
    let baseCount = 0;
    if (base) {
      for (const name of await filesAt(base.top, base.commit, base.prefix + (rel === '' ? '' : rel))) {
        if (!name.endsWith('.prompt.mdx') || !name.startsWith(base.prefix)) continue;
        const path = name.slice(base.prefix.length);
        if (path.split('/').some((part) => part === 'node_modules' || part.startsWith('.'))) continue;
        baseCount += 1;
        const text = await fileAt(base.top, base.commit, name);
        if (text !== undefined && (await hasTestSettings(path, text.toString('utf8')))) atBase.add(path);
      }
    }
    if (info === undefined && baseCount === 0) {
      throw new UsageError('USAGE_NO_SUCH_FILE', `${given[i] ?? target}: no such file or folder${base ? ' at head or at base' : ''}`, { hint: 'give a .prompt.mdx file or a folder holding some' });
    }
  }
  const paths = [...new Set([...head.keys(), ...atBase])].sort();
  return paths.map((path) => ({ path, ...(head.has(path) ? { headFile: head.get(path) as string } : {}), atBase: atBase.has(path) }));
}

/** A prompt an experiment can run: its frontmatter has `test_settings`. A broken one counts (its run says what is wrong). */
async function hasTestSettings(file: string, text: string): Promise<boolean> {
  try {
    const { data } = await parseFrontmatter(file, text);
    return typeof data.test_settings === 'object' && data.test_settings !== null;
  } catch {
    return true;
  }
}

/** The base's copy of a project path, relative to the repository's top. */
export function basePath(tree: BaseTree, path: string): string {
  return tree.prefix + path;
}
