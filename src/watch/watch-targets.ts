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

/** Whether `path` lies in one of the target folders outside hidden folders and node_modules. */
export function isInsideFolders(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => {
    const rel = relative(folder, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    return !rel.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
  });
}

/** A prompt file this session should run: named on the command line or found in a target folder. */
export function isPromptTarget(path: string, targets: WatchTargets): boolean {
  if (targets.files.has(path)) return true;
  return path.endsWith('.prompt.mdx') && isInsideFolders(path, targets.folders);
}

/** Paths under a target folder that chokidar should not even descend into. */
export function isIgnoredPath(path: string, targets: WatchTargets, wanted: ReadonlySet<string>): boolean {
  if (wanted.has(path)) return false;
  return targets.folders.some((folder) => {
    const rel = relative(folder, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    return rel.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
  });
}
