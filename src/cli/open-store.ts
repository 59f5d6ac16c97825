import { UsageError } from '../errors/index.js';
import type { Project } from '../project/types.js';
import { openStorage, storeSetting, STORE_URL_ENV, type RunStorage, type StoreSetting } from '../store/index.js';

/** The project's store setting (AGENTMARK_STORE_URL wins over agentmark.json's `store`). */
export function projectStoreSetting(project: Project, env: NodeJS.ProcessEnv): StoreSetting {
  return storeSetting(project.file.store, env, project.configPath);
}

/** The project's store, local or PostgreSQL, as its setting says. */
export function openProjectStorage(project: Project, env: NodeJS.ProcessEnv): Promise<RunStorage> {
  const { url } = projectStoreSetting(project, env);
  return openStorage({ projectRoot: project.root, ...(url === undefined ? {} : { url }) });
}

/** The project's database URL, for commands that only make sense with one (`store migrate`). */
export function requireStoreUrl(project: Project, env: NodeJS.ProcessEnv, command: string): string {
  const { url } = projectStoreSetting(project, env);
  if (url === undefined) {
    throw new UsageError('USAGE_NO_STORE', `${command} needs a team store, and this project keeps its runs in .agentmark/`, {
      hint: `set ${STORE_URL_ENV}=postgres://user:password@host:5432/db (in the environment or .env), or "store" in agentmark.json`,
    });
  }
  return url;
}

/** `{ storeUrl }` for resolveRunRef when the project has a team store, else nothing. */
export function teamStoreRef(project: Project, env: NodeJS.ProcessEnv): { storeUrl?: string } {
  const { url } = projectStoreSetting(project, env);
  return url === undefined ? {} : { storeUrl: url };
}
