import { afterEach } from 'vitest';
import { LspClient } from '../helpers/lsp-client.js';
import { lspProject } from './lsp-project.js';

type StartOptions = Parameters<typeof LspClient.start> extends [string, ...infer Rest] ? Rest : never;

export interface LspSession {
  /** lspProject's files with `files` written over them, and `agentmark lsp` started on it. */
  start(files?: Record<string, string>): Promise<LspClient>;
  /** `agentmark lsp` started on a project the test made (another project, other client capabilities). */
  attach(project: { dir: string; cleanup: () => Promise<void> }, ...options: StartOptions): Promise<LspClient>;
}

/** A language server per test, stopped and its project removed after each (call it at the top of a test file). */
export function useLspSession(): LspSession {
  let cleanup: (() => Promise<void>) | undefined;
  let client: LspClient | undefined;
  afterEach(async () => {
    await client?.stop();
    await cleanup?.();
    client = undefined;
    cleanup = undefined;
  });
  const attach: LspSession['attach'] = async (project, ...options) => {
    cleanup = project.cleanup;
    client = await LspClient.start(project.dir, ...options);
    return client;
  };
  return { attach, start: async (files = {}) => attach(await lspProject(files)) };
}
