import { isAbsolute, relative, sep } from 'node:path';

/**
 * The paths named on the command line: prompt files and folders of prompts. A folder also
 * yields prompt files added to it later; hidden folders and node_modules are never looked in
 * (the run store under `.agentmark/` writes on every run and must not trigger reruns).
 */
export interface WatchTargets {
  files: ReadonlySet<string>;
  folders: readonly string[];
}

/** `path`'s parts below the first target folder holding it, or undefined when none does. */
function partsBelow(path: string, folders: readonly string[]): string[] | undefined {
  for (const folder of folders) {
    const rel = relative(folder, path);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep);
  }
  return undefined;
}

const hidden = (part: string): boolean => part.startsWith('.') || part === 'node_modules';

/** Whether `path` lies in one of the target folders outside hidden folders and node_modules. */
export function isInsideFolders(path: string, folders: readonly string[]): boolean {
  const parts = partsBelow(path, folders);
  return parts !== undefined && !parts.some(hidden);
}

/** A prompt file this session should run: named on the command line or found in a target folder. */
export function isPromptTarget(path: string, targets: WatchTargets): boolean {
  if (targets.files.has(path)) return true;
  return path.endsWith('.prompt.mdx') && isInsideFolders(path, targets.folders);
}

/** Paths under a target folder that chokidar should not even descend into, unless an experiment reads them. */
export function isIgnoredPath(path: string, targets: WatchTargets, wanted: ReadonlySet<string>): boolean {
  if (wanted.has(path)) return false;
  return partsBelow(path, targets.folders)?.some(hidden) ?? false;
}
