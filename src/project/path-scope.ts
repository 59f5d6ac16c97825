import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The folders a prompt may read files from: the project root and the folders agentmark.json
 * lists in `allowedPaths`. Every resolver of a file a prompt names (component imports, datasets,
 * judge prompts, --props-file) asks `outsideScope` before reading, so a prompt cannot pull
 * `/etc/passwd` or `~/.ssh/id_rsa` into a message sent to a model.
 */
export interface PathScope {
  /** The project root, symlinks resolved. */
  root: string;
  /** Extra folders (agentmark.json `allowedPaths`), absolute, symlinks resolved. */
  allowed: readonly string[];
}

/** What to say when a path leaves its scope; the caller throws it as its own kind of error. */
export interface OutsideScope {
  /** Where the path really leads (symlinks followed). */
  real: string;
  message: string;
  hint: string;
}

/** The scope of a project: its root plus its `allowedPaths` (already absolute). */
export function projectScope(project: { root: string; allowedPaths?: readonly string[] | undefined }): PathScope {
  return { root: realPath(project.root), allowed: (project.allowedPaths ?? []).map(realPath) };
}

/**
 * Undefined when `target` lies inside the scope once every symlink on its way is followed; else
 * the message and hint. `shown` is the path as the user wrote it.
 */
export function outsideScope(scope: PathScope, target: string, shown: string): OutsideScope | undefined {
  const real = realPath(target);
  if (isWithin(real, scope.root) || scope.allowed.some((folder) => isWithin(real, folder))) return undefined;
  const leads = real === path.resolve(target) ? '' : ` (through a symlink, to ${real})`;
  return {
    real,
    message: `"${shown}" is outside the project: ${path.resolve(target)}${leads}`,
    hint: 'a prompt may only read files inside its project (the folder holding agentmark.json), symlinks followed; to share a folder, list it in agentmark.json "allowedPaths", e.g. ["../shared-datasets"]',
  };
}

function isWithin(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * `realpath` of the path, or — for a path that does not exist (yet) — the real path of its
 * nearest existing ancestor joined with the rest, so a missing file behind a symlinked folder
 * is still judged by where that folder leads.
 */
export function realPath(target: string): string {
  const absolute = path.resolve(target);
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
