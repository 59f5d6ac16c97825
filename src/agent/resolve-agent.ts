import { didYouMean, UsageError } from '../errors/index.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { AgentFunction } from './types.js';

/**
 * The agent a run uses: `--agent`, else the prompt's `test_settings.agent`, else none. A name the
 * config does not define is a usage error naming the closest one.
 */
export function resolveAgent(
  agents: Record<string, AgentFunction> | undefined,
  flag: string | undefined,
  prompt: LoadedPrompt,
): { name: string; fn: AgentFunction } | undefined {
  const name = flag ?? prompt.testSettings.agent;
  if (name === undefined) return undefined;
  const known = Object.keys(agents ?? {});
  const fn = agents?.[name];
  if (fn !== undefined && Object.hasOwn(agents ?? {}, name)) return { name, fn };
  const where = flag === undefined ? { location: prompt.locate(['test_settings', 'agent']) } : {};
  const suggestion = didYouMean(name, known);
  throw new UsageError('USAGE_UNKNOWN_AGENT', `unknown agent "${name}" (${known.length === 0 ? 'the config defines no agents' : `defined: ${known.join(', ')}`})`, {
    ...where,
    hint: suggestion ?? 'define it under `agents` in agentmark.config.ts',
  });
}

