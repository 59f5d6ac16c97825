import type { ServerOf } from './gen-ai.js';

/**
 * Where a provider's calls went: OpenAI's base URL (`OPENAI_BASE_URL`, else the config's
 * `baseURL`, else api.openai.com). Other providers' servers are their packages' business.
 */
export function serverOf(env: NodeJS.ProcessEnv, configBaseURL: string | undefined): ServerOf {
  return (provider) => {
    if (provider !== 'openai') return undefined;
    const base = env.OPENAI_BASE_URL?.trim() || configBaseURL || 'https://api.openai.com/v1';
    try {
      return new URL(base);
    } catch {
      return undefined;
    }
  };
}
