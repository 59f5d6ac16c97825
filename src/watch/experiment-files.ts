import { dirname, isAbsolute, resolve } from 'node:path';
import { resolveDatasetPath } from '../dataset/index.js';
import { flattenErrors, isAgentmarkError } from '../errors/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';

/**
 * The files one experiment read: the prompt, every component it imports (as the loader
 * recorded them), and its dataset. Shared files (agentmark.json, the config) are tracked
 * by the session, since a change to them reruns everything.
 */
export function experimentFiles(prompt: LoadedPrompt, project: Project): string[] {
  const files = [...prompt.files];
  const dataset = prompt.testSettings.dataset;
  if (dataset !== undefined) {
    try {
      files.push(resolveDatasetPath(dataset, prompt.path, project));
    } catch {
      // A dataset that cannot be found is reported by the run itself, at the prompt. Its file
      // may come back (restored, renamed back) at any place it is looked for: follow them all.
      files.push(...datasetCandidates(dataset, prompt.path, project));
    }
  }
  return files;
}

/** Where `resolveDatasetPath` looks: next to the prompt, under agentmarkPath, under the root. */
function datasetCandidates(dataset: string, promptPath: string, project: Project): string[] {
  if (isAbsolute(dataset)) return [dataset];
  return [...new Set([dirname(resolve(promptPath)), project.promptRoot, project.root].map((base) => resolve(base, dataset)))];
}

/**
 * The files a load error points at, so fixing a broken component reruns the prompts that
 * import it even though the failed load could not say what else it read.
 */
export function errorFiles(error: unknown): string[] {
  if (!isAgentmarkError(error)) return [];
  return flattenErrors(error).flatMap((each) => {
    const file = each.location?.file;
    return file !== undefined && isAbsolute(file) ? [file] : [];
  });
}

/** A load or run error as the CLI prints it: `file:line:col: message` and a hint. */
export function describeError(error: unknown, cwd: string): string {
  if (isAgentmarkError(error)) return error.format(cwd);
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
