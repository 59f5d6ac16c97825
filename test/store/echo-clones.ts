import { afterAll, afterEach, beforeAll } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { commitAllOnMain } from '../helpers/git-repo.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';

export interface EchoClones {
  /** The file's loopback model (started before its tests, closed after). */
  readonly server: OpenAIServer;
  /** A clone of the echo project: its own folder and git repository on branch main, nothing shared (removed after the test). */
  clone(): Promise<CliProject>;
}

/** Clones of one project on several "machines" against one loopback model, for the team-store tests (call at the top of a test file). */
export function useEchoClones(): EchoClones {
  let server: OpenAIServer | undefined;
  const projects: CliProject[] = [];
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(() => server?.close());
  afterEach(async () => {
    for (const project of projects.splice(0)) await project.cleanup();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('useEchoClones: server read before beforeAll');
      return server;
    },
    async clone() {
      const project = await cliProject();
      projects.push(project);
      commitAllOnMain(project.dir);
      return project;
    },
  };
}
