import type { FSWatcher } from 'chokidar';
import type { ChangeKind } from './change-batcher.js';
import { isIgnoredPath, isInsideFolders, type WatchTargets } from './watch-targets.js';

export interface FileWatcherOptions {
  targets: WatchTargets;
  onChange: (path: string, kind: ChangeKind) => void;
  onError: (error: unknown) => void;
}

/**
 * chokidar over the target folders plus the exact files the experiments read. It uses the
 * platform's native events (no polling), so an idle session costs no CPU. The files set is
 * synced after every load: new dependencies are added, stale ones dropped. A watched path
 * is followed, not the file first seen there: deleted, recreated, renamed away and back.
 */
export class FileWatcher {
  private watcher: FSWatcher | undefined;
  private readonly watched = new Set<string>();

  constructor(private readonly options: FileWatcherOptions) {}

  /** Starts watching the target folders; resolves once the initial scan is done. */
  async start(files: Iterable<string>): Promise<void> {
    // Loaded here, not at the top: only watch mode pays for chokidar.
    const { watch } = await import('chokidar');
    const { targets } = this.options;
    const initial = [...targets.folders, ...targets.files, ...files];
    for (const path of initial) this.watched.add(path);
    const watcher = watch(initial, {
      ignoreInitial: true,
      ignored: (path: string) => isIgnoredPath(path, targets, this.watched),
    });
    this.watcher = watcher;
    watcher.on('add', (path) => this.options.onChange(path, 'add'));
    watcher.on('change', (path) => this.options.onChange(path, 'change'));
    watcher.on('unlink', (path) => {
      this.follow(path);
      this.options.onChange(path, 'unlink');
    });
    watcher.on('error', (error) => this.options.onError(error));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Makes the set of individually watched files equal to `files` (target paths always stay). */
  sync(files: Iterable<string>): void {
    const watcher = this.watcher;
    if (!watcher) return;
    const { targets } = this.options;
    const wanted = new Set([...targets.files, ...files]);
    const added = [...wanted].filter((path) => !this.watched.has(path));
    // A file inside a watched folder keeps its events through the folder; unwatching it would
    // make chokidar ignore it for good, even once it is needed again.
    const dropped = [...this.watched].filter(
      (path) => !wanted.has(path) && !targets.folders.includes(path) && !isInsideFolders(path, targets.folders),
    );
    for (const path of added) this.watched.add(path);
    for (const path of dropped) this.watched.delete(path);
    if (added.length > 0) watcher.add(added);
    if (dropped.length > 0) watcher.unwatch(dropped);
  }

  /**
   * chokidar 5 forgets a file watched on its own once it is deleted or renamed away (it waits
   * for its return only when it is the sole path watched), so its return and every later edit
   * would go unseen. Adding the path again makes chokidar watch the parent folder for that
   * one name until it reappears. Files inside a target folder come back through the folder.
   */
  private follow(path: string): void {
    const { folders } = this.options.targets;
    if (!this.watched.has(path) || isInsideFolders(path, folders)) return;
    this.watcher?.add(path);
  }

  async close(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    await watcher?.close();
  }
}
