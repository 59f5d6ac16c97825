import { basename, relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';

/**
 * Watches the project's local run store for run manifests written (a run started or ended, by
 * any process: the CLI in a terminal, a lens's command), for clients that cannot watch files for
 * the server (no dynamic `workspace/didChangeWatchedFiles` registration, as Neovim on Linux).
 * The run folder may not exist yet, which chokidar does not follow when given its path: so the
 * root is watched, everything but `.agentmark/runs/<id>/manifest.json` (and the folders on the
 * way) ignored before it is read, each folder on the way seen as it is made.
 */
export class RunStoreWatcher {
  private watcher: FSWatcher | undefined;

  async start(root: string, onManifest: () => void): Promise<void> {
    // Loaded here, not at the top: only a server whose client cannot watch pays for chokidar.
    const { watch } = await import('chokidar');
    const watcher = watch(root, { ignoreInitial: true, depth: 3, ignored: (path: string) => !onTheWay(relative(root, path).split(sep)) });
    this.watcher = watcher;
    const changed = (path: string) => {
      if (basename(path) === 'manifest.json') onManifest();
    };
    watcher.on('add', changed);
    watcher.on('change', changed);
    // A watcher that fails costs the lenses their refresh, never the server.
    watcher.on('error', () => undefined);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = undefined;
  }
}

/** `.agentmark/runs/<id>/manifest.json`, or a folder on the way to one (the root is `['']`). */
function onTheWay(parts: readonly string[]): boolean {
  const want = ['.agentmark', 'runs', undefined, 'manifest.json'];
  if (parts.length === 1 && parts[0] === '') return true;
  if (parts.length > want.length) return false;
  return parts.every((part, i) => want[i] === undefined || want[i] === part);
}
