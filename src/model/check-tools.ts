import type { Tool } from 'ai';
import { ConfigError, didYouMean } from '../errors/index.js';
import type { ModelRequest } from './types.js';

/**
 * Fails when the request names a tool that is not registered, so the runner can check every
 * prompt before the first row spends money.
 */
export function checkTools(
  request: Pick<ModelRequest, 'tools'> | readonly string[],
  tools: Record<string, Tool> = {},
  /** The prompt file, named in the error. */
  file?: string,
): void {
  const known = Object.keys(tools);
  const names = isNameList(request) ? request : (request.tools ?? []);
  for (const name of names) {
    if (Object.hasOwn(tools, name)) continue;
    const listed = known.length === 0 ? 'no tools are registered' : `registered tools: ${known.join(', ')}`;
    const suggestion = didYouMean(name, known);
    throw new ConfigError('CONFIG_UNKNOWN_TOOL', `unknown tool "${name}" (${listed})`, {
      hint: suggestion ?? 'register the tool under `tools` in agentmark.config.ts',
      ...(file === undefined ? {} : { location: { file } }),
    });
  }
}

/** The registered tools this request uses, by name. Call `checkTools` first. */
export function pickTools(request: Pick<ModelRequest, 'tools'>, tools: Record<string, Tool> = {}): Record<string, Tool> {
  const picked: Record<string, Tool> = {};
  for (const name of request.tools ?? []) {
    const tool = tools[name];
    if (tool !== undefined) picked[name] = tool;
  }
  return picked;
}

function isNameList(value: Pick<ModelRequest, 'tools'> | readonly string[]): value is readonly string[] {
  return Array.isArray(value);
}
