import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ChatMessage, LoadedPrompt } from '../prompt/types.js';
import type { RunManifest } from '../store/types.js';

/** A prompt loaded for rendering a run's rows, or why it cannot be. */
export type RunPrompt = { prompt: LoadedPrompt } | { note: string };

/**
 * The run store keeps each row's input, not the messages it rendered to: they are rendered
 * again here from the prompt the run stored (`provenance`), so an edit made since changes
 * nothing. A run made before runs kept their prompt is rendered from the prompt file, but only
 * when the file is the one the run used (same hash), so a page never shows messages the model
 * did not see.
 */
export async function loadRunPrompt(projectRoot: string, manifest: RunManifest): Promise<RunPrompt> {
  const { loadPrompt } = await import('../prompt/index.js');
  const { loadConfig, loadProject } = await import('../project/index.js');
  let prompt: LoadedPrompt;
  try {
    // As the run loaded it: inside the project's scope, with the project's own filters.
    const project = await loadProject(projectRoot);
    const config = await loadConfig(project, { fsCache: true });
    if (manifest.provenance) {
      const { loadStoredPrompt } = await import('../provenance/index.js');
      return { prompt: await loadStoredPrompt(projectRoot, manifest, { filters: config.filters }) };
    }
    prompt = await loadPrompt(join(projectRoot, manifest.prompt.path), { project, filters: config.filters });
  } catch (error) {
    const which = manifest.provenance ? `the prompt this run stored (${manifest.prompt.path})` : `the prompt ${manifest.prompt.path}`;
    return { note: `${which} no longer loads (${error instanceof Error ? error.message : String(error)})` };
  }
  if (createHash('sha256').update(prompt.source).digest('hex') !== manifest.prompt.hash) {
    return { note: `${manifest.prompt.path} changed since this run; its messages are not shown` };
  }
  return { prompt };
}

export function renderRowMessages(loaded: RunPrompt, input: Record<string, unknown>): ChatMessage[] | null {
  if (!('prompt' in loaded)) return null;
  try {
    return loaded.prompt.render(input).messages ?? null;
  } catch {
    return null;
  }
}

/** The command that runs this row again. */
export function reproduceCommand(manifest: RunManifest, index: number): string {
  const path = /^[\w./-]+$/.test(manifest.prompt.path) ? manifest.prompt.path : `'${manifest.prompt.path.replace(/'/g, "'\\''")}'`;
  return `agentmark run-prompt ${path} --row ${index} --model ${manifest.model}`;
}
