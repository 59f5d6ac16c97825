import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { ModelResponse } from '../model/types.js';
import { loadPrompt } from '../prompt/index.js';
import { createModelCaller } from './model-caller.js';
import type { CacheMode } from './options.js';

export interface RunOnceOptions {
  project: Project;
  config: LoadedConfig;
  promptPath: string;
  props?: Record<string, unknown>;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
  cacheMode?: CacheMode;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Renders a prompt once and calls its model (`agentmark run-prompt`). */
export async function runPromptOnce(
  options: RunOnceOptions,
  propsFor: (prompt: Awaited<ReturnType<typeof loadPrompt>>) => Promise<Record<string, unknown>>,
): Promise<ModelResponse> {
  const prompt = await loadPrompt(options.promptPath, { project: options.project, filters: options.config.filters });
  const caller = await createModelCaller({ ...options, promptPath: prompt.path }, prompt);
  const rendered = prompt.render(await propsFor(prompt));
  try {
    return await caller.call(caller.toRequest(rendered), 0, options.signal ?? new AbortController().signal);
  } finally {
    await caller.close();
  }
}
