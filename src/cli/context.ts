import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import { loadProject, loadProjectEnv } from '../project/index.js';
import type { Project } from '../project/types.js';
import { findPromptFiles } from '../prompt/index.js';

/**
 * The project named by --project, else the one found walking up from the first path given
 * (so a prompt in another project just works), else from the current folder. Its `.env` and
 * `.env.local` are loaded into `env` (the real environment wins), before the config or any
 * scorer worker reads a key.
 */
export async function openProject(
  projectOption: string | undefined,
  cwd: string,
  firstPath?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Project> {
  const project = await loadProject(projectDir(projectOption, cwd, firstPath));
  await loadProjectEnv(project.root, env);
  return project;
}

function projectDir(projectOption: string | undefined, cwd: string, firstPath: string | undefined): string {
  if (projectOption !== undefined) return resolve(cwd, projectOption);
  if (firstPath !== undefined) {
    const absolute = resolve(cwd, firstPath);
    return absolute.endsWith('.mdx') ? dirname(absolute) : absolute;
  }
  return cwd;
}

/**
 * Expands the command line's prompt paths: files as given, folders to every .prompt.mdx under
 * them, nothing given to every prompt under the project's prompt folder.
 */
export async function resolvePromptPaths(paths: string[], cwd: string, project: Project): Promise<string[]> {
  if (paths.length === 0) return findPromptFiles(project.promptRoot);
  const found: string[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      throw new UsageError('USAGE_NO_SUCH_FILE', `${path}: no such file or folder`, {
        hint: 'give a .prompt.mdx file or a folder holding some',
      });
    }
    if (info.isDirectory()) {
      const inside = await findPromptFiles(absolute);
      if (inside.length === 0) {
        throw new UsageError('USAGE_NO_PROMPTS', `${path}: no .prompt.mdx files in this folder`);
      }
      found.push(...inside);
    } else {
      found.push(absolute);
    }
  }
  return [...new Set(found)];
}
