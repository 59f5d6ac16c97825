import { relative, resolve, sep } from 'node:path';
import type { Project } from '../project/types.js';

/** A path given on the command line as manifests store it: relative to the project root, with `/`. */
export function projectPath(project: Project, cwd: string, path: string): string {
  return relative(project.root, resolve(cwd, path)).split(sep).join('/');
}
