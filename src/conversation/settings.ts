import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { PromptSyntaxError } from '../errors/index.js';
import { outsideScope, projectScope } from '../project/path-scope.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import { DEFAULT_MAX_TURNS, DEFAULT_STOP, type ConversationSettings } from './types.js';

/**
 * The prompt's conversation settings with their defaults, and its simulator loaded (so a
 * simulator that is not a prompt file, or does not load, is an input error before any call).
 * Undefined for a prompt without `test_settings.conversation`.
 */
export async function conversationSettings(
  prompt: LoadedPrompt,
  project: Project,
  load: (path: string) => Promise<LoadedPrompt>,
): Promise<ConversationSettings | undefined> {
  const written = prompt.testSettings.conversation;
  if (written === undefined) return undefined;
  const settings: ConversationSettings = {
    maxTurns: written.max_turns ?? DEFAULT_MAX_TURNS,
    stop: written.stop ?? DEFAULT_STOP,
    opener: written.opener ?? 'user',
  };
  if (written.simulator !== undefined) settings.simulator = await load(simulatorPath(written.simulator, prompt, project));
  return settings;
}

/** The simulator's file: next to the prompt first, then from the project root, inside the project. */
function simulatorPath(written: string, prompt: LoadedPrompt, project: Project): string {
  const location = prompt.locate(['test_settings', 'conversation', 'simulator']);
  const fail = (message: string, hint: string): never => {
    throw new PromptSyntaxError('PROMPT_SIMULATOR_INVALID', message, { location, hint });
  };
  const hint = 'the simulated user is a prompt file, e.g. simulator: ./customer.prompt.mdx';
  if (!written.endsWith('.prompt.mdx')) fail(`conversation.simulator "${written}" is not a prompt file (.prompt.mdx)`, hint);
  const bases = isAbsolute(written) ? [''] : [dirname(prompt.path), project.root];
  const tried = [...new Set(bases.map((base) => resolve(base, written)))];
  const found = tried.find((file) => existsSync(file) && statSync(file).isFile());
  if (found === undefined) fail(`conversation.simulator "${written}" not found; tried ${tried.map((file) => relative(project.root, file)).join(', ')}`, hint);
  const outside = outsideScope(projectScope(project), found as string, written);
  if (outside) fail(`conversation.simulator ${outside.message}`, outside.hint ?? hint);
  return found as string;
}
