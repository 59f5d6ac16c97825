import type { LoadedConfig } from '../project/index.js';

/** The AgentMark client that could not be loaded, for eval binding errors; undefined when it loaded or there is none. */
export function clientFailureOf(config: LoadedConfig): { file: string; reason: string } | undefined {
  const client = config.client;
  return client?.error === undefined ? undefined : { file: client.path, reason: client.error };
}
