import * as path from 'node:path';
import type { LoadedConfig } from './config-types.js';
import { loadClient } from './load-client.js';

/**
 * Adds the eval functions of the project's AgentMark client to the config's scorers. The config
 * wins on a name in both (with a warning naming both files); a client that cannot be loaded
 * is a warning, and its reason is kept so an eval that only it could score fails naming it.
 * A config that imports the client itself (as `agentmark migrate` writes it) has taken its
 * scorers over: the client is then not read a second time.
 */
export async function withClientScorers(config: LoadedConfig, root: string, options: { fsCache?: boolean }): Promise<LoadedConfig> {
  const client = await loadClient(root, options);
  if (!client || config.files.includes(client.path)) return config;
  const clientName = path.basename(client.path);
  const configName = config.path === undefined ? undefined : path.basename(config.path);
  const warnings = [...(config.warnings ?? [])];
  if (client.error !== undefined) {
    warnings.push(`${clientName} could not be loaded, so its eval functions are not registered: ${client.error}`);
  }
  const own = config.scorers ?? {};
  for (const name of Object.keys(client.scorers)) {
    if (Object.hasOwn(own, name)) warnings.push(`scorer ${name} is registered in both ${configName ?? 'the config'} and ${clientName}: the one in ${configName ?? 'the config'} is used`);
  }
  return {
    ...config,
    scorers: { ...client.scorers, ...own },
    files: [...config.files, ...client.files.filter((file) => !config.files.includes(file))],
    client: { path: client.path, ...(client.error === undefined ? {} : { error: client.error }) },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
