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

/** Whether this process said already that the team store is down for run references (one warning a command). */
let refsDownSaid = false;

/**
 * resolveRunRef's team-store context for a command: the store's URL, and, when the store cannot be
 * reached and a reference is found in this clone instead, one warning on stderr (a command naming
 * two runs warns once).
 */
export function runRefStore(project: Project, io: { env: NodeJS.ProcessEnv; stderr: { write(text: string): unknown } }): { storeUrl?: string; onStoreDown?: (error: Error) => void } {
  const { storeUrl } = teamStoreRef(project, io.env);
  if (storeUrl === undefined) return {};
  return {
    storeUrl,
    onStoreDown: (error) => {
      if (refsDownSaid) return;
      refsDownSaid = true;
      io.stderr.write(`warning: the team store is not available (${error.message}): run references are looked up in this clone only\n`);
    },
  };
}
