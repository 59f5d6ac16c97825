import type { Connection, ExecuteCommandParams } from 'vscode-languageserver';
import { startViewer } from '../cli/view-server.js';
import { LENS_COMMANDS, lastRunOf } from './code-lens.js';
import { uriToPath } from './open-documents.js';
import type { ServerContext } from './server-context.js';

/** The commands the server runs itself (the others, a terminal's, the editor's client runs). */
export const SERVER_COMMANDS = [LENS_COMMANDS.openLastRun];

/** What `agentmark.openLastRun` answers: the run's page in the viewer. */
export interface OpenRunResult {
  runId: string;
  url: string;
}

/**
 * `Open last run`: the viewer (started once, in the server's process, on a free loopback port)
 * at that run's page, which the client is asked to open (`window/showDocument`, external) when it
 * can, and which is the command's result either way.
 */
export class RunViewer {
  private server: Promise<{ url: string; close: () => Promise<void> }> | undefined;

  constructor(private readonly context: ServerContext, private readonly showDocument: () => boolean) {}

  async execute(params: ExecuteCommandParams): Promise<OpenRunResult | null> {
    if (params.command !== LENS_COMMANDS.openLastRun) return null;
    await this.context.ready();
    const project = this.context.state.project;
    const [uri, id] = params.arguments ?? [];
    if (!project || typeof uri !== 'string') return null;
    const runId = typeof id === 'string' ? id : (await lastRunOf(project.root, uriToPath(uri)))?.id;
    if (runId === undefined) {
      void this.context.connection.window.showInformationMessage('This prompt has no run yet.');
      return null;
    }
    const connection: Connection = this.context.connection;
    // Never stdout: that is the editor's channel.
    this.server ??= startViewer(project.root, { port: 0, host: '127.0.0.1', scores: project.scores }, { write: (text) => connection.console.warn(String(text).trimEnd()) });
    const url = `${(await this.server).url}#/runs/${encodeURIComponent(runId)}`;
    if (this.showDocument()) await connection.window.showDocument({ uri: url, external: true });
    return { runId, url };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await (await server?.catch(() => undefined))?.close();
  }
}
