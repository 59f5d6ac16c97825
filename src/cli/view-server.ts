import { spawn } from 'node:child_process';
import type { OutStream } from './io.js';
import type { ScoreSchema } from '../project/types.js';
import { reviewerName } from '../review/reviewer-name.js';

export interface ViewFlags {
  port?: number;
  host?: string;
  open?: boolean;
  /** No label controls, no writes. */
  readOnly?: boolean;
  /** Who labels; else git config user.name; else the page asks. */
  reviewer?: string;
  scores?: Readonly<Record<string, ScoreSchema>>;
}

/** Shared by `view` and `--view` on run-experiment / watch. */
export const viewOptions = {
  port: { type: 'integer', value: '<n>', min: 0, max: 65535, default: 4848, description: 'Port of the viewer (0: any free port)' },
  host: { type: 'string', value: '<address>', default: '127.0.0.1', description: 'Address to bind; anything but loopback exposes your runs to the network' },
  open: { type: 'boolean', description: 'Open the viewer in the default browser' },
} as const;

/** Opens a URL in the system's browser; a machine without one just keeps the printed URL. */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the URL is printed anyway.
  }
}

/**
 * Starts the viewer (loaded only now, so other commands never load it) and
 * warns when it is reachable from other machines. Returns the function that stops it.
 */
export async function startViewer(projectRoot: string, flags: ViewFlags, stderr: OutStream): Promise<{ url: string; close: () => Promise<void> }> {
  const { startViewServer } = await import('../view/index.js');
  const reviewer = flags.readOnly ? undefined : await reviewerName(flags.reviewer, projectRoot);
  const server = await startViewServer({
    projectRoot,
    ...(flags.host === undefined ? {} : { host: flags.host }),
    port: flags.port ?? 4848,
    ...(flags.readOnly ? { readOnly: true } : {}),
    ...(reviewer === undefined ? {} : { reviewer }),
    ...(flags.scores === undefined ? {} : { scores: flags.scores }),
  });
  if (server.exposed) {
    stderr.write(
      `warning: the viewer listens on ${server.host}: anyone who can reach this machine on port ${server.port} can read your runs (inputs, outputs, reasons)\n`,
    );
  }
  if (flags.open) openBrowser(server.url);
  return server;
}
