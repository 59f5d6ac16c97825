import type { AgentmarkConfig } from './config-types.js';

/** Types `agentmark.config.ts` for editors; returns the config unchanged. */
export function defineConfig(config: AgentmarkConfig): AgentmarkConfig {
  return config;
}
