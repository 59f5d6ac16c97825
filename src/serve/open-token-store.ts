import type { Project } from '../project/types.js';
import { LocalTokenStore, tokensFile } from './local-token-store.js';
import type { TokenStore } from './token-store.js';

/** The project's tokens: in its store's database when it has one, else in `.agentmark/tokens.json`. */
export async function openTokenStore(project: Project, _env: NodeJS.ProcessEnv): Promise<TokenStore> {
  return new LocalTokenStore(tokensFile(project.root));
}
