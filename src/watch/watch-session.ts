import { relative } from 'node:path';
import { findPromptFiles } from '../prompt/index.js';
import { ChangeBatcher, type ChangeBatch } from './change-batcher.js';
import { DependencyGraph } from './dependency-graph.js';
import { describeError } from './experiment-files.js';
import { ProjectState } from './project-state.js';
import { FileWatcher } from './file-watcher.js';
import { formatErrorBlock, formatRunBlock, formatSharedErrorBlock, type BlockOptions } from './format-block.js';
import { formatScreen, KEY_HELP } from './format-screen.js';
import { listenForKeys, type KeyAction } from './keys.js';
import { RerunScheduler, type RerunRequest } from './rerun-scheduler.js';
import { RunHistory } from './run-history.js';
import type { RunReport } from './run-report.js';
import { createScreen, type Screen } from './screen.js';
import type { WatchSessionOptions } from './watch-options.js';
import { rerunExperiment } from './rerun-experiment.js';
import { routeChanges } from './route-changes.js';
import { isFileError, SETTLE_MS } from './settled.js';
import { setTimeout as delay } from 'node:timers/promises';

interface Experiment {
  path: string;
  label: string;
  history: RunHistory;
  last?: RunReport;
  error?: string;
  running: boolean;
}

/**
 * Watch mode: runs the experiments, then reruns the ones whose files change, until `q` or
 * Ctrl-C. Resolves with the exit code (0 on `q`, 130 on Ctrl-C) once every run is cancelled,
 * the watcher is closed and stdin is restored, so nothing keeps the process alive.
 */
export async function runWatchSession(options: WatchSessionOptions): Promise<number> {
  return new WatchSession(options).run();
}

class WatchSession {
  private readonly shared: ProjectState;
  private readonly experiments = new Map<string, Experiment>();
  private readonly graph = new DependencyGraph();
  private readonly scheduler: RerunScheduler;
  private readonly batcher: ChangeBatcher;
  private readonly watcher: FileWatcher;
  private readonly screen: Screen;
  private ready = false;
  private closing = false;
  /** Counts notices, so that only the latest one is taken down when its reruns end. */
  private notices = 0;
  /** `q` came before the first runs finished: say so on the way out rather than vanish. */
  private quitEarly = false;
  /** Runs the session's end cancelled, as `label (run id)`. */
  private readonly cancelled: string[] = [];
  private finish: (code: number) => void = () => {};

  constructor(private readonly options: WatchSessionOptions) {
    this.shared = new ProjectState(options.project, options.cwd);
    this.scheduler = new RerunScheduler(
      (path, request, signal) => this.runOne(path, request, signal),
      (path, error) => this.showError(path, error),
    );
    this.batcher = new ChangeBatcher({ delayMs: options.debounceMs ?? 100, onFlush: (batch) => this.onChanges(batch) });
    this.watcher = new FileWatcher({
      targets: options.targets,
      onChange: (path, kind) => this.batcher.push(path, kind),
      onError: (error) => this.screen.note(`watcher error: ${describeError(error, options.cwd)}`),
    });
    this.screen = createScreen(options.stdout, () => this.render());
  }

  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    const onAbort = (): void => this.finish(130);
    this.options.signal.addEventListener('abort', onAbort, { once: true });
    if (this.options.signal.aborted) this.finish(130);
    const restoreKeys = listenForKeys(this.options.stdin, (action) => this.onKey(action));
    try {
      await this.reloadShared(false);
      await this.watcher.start(this.watchedPaths());
      // A quit during start-up starts nothing.
      if (!this.quitEarly) for (const path of this.options.prompts) this.add(path);
      const started = await Promise.race([this.scheduler.idle().then(() => true), done.then(() => false)]);
      if (started) {
        this.ready = true;
        this.screen.note(`${this.watchingLine()} — ${KEY_HELP}`);
      }
      return await done;
    } finally {
      this.closing = true;
      this.options.signal.removeEventListener('abort', onAbort);
      restoreKeys();
      this.batcher.dispose();
      await this.scheduler.close();
      await this.watcher.close();
      if (this.quitEarly) this.screen.note(this.quitEarlyNote());
    }
  }

  private quitEarlyNote(): string {
    const cancelled = this.cancelled.length > 0 ? `; cancelled: ${this.cancelled.join(', ')}, kept as interrupted in the run store` : '';
    return `quit (q) before the first runs finished${cancelled}`;
  }

  private add(path: string): void {
    if (this.experiments.has(path)) return;
    this.experiments.set(path, { path, label: relative(this.options.cwd, path) || path, history: new RunHistory(), running: false });
    this.graph.set(path, [path]);
    this.scheduler.request(path);
  }

  private async drop(path: string): Promise<void> {
    const experiment = this.experiments.get(path);
    if (!experiment) return;
    this.experiments.delete(path);
    this.graph.remove(path);
    await this.scheduler.cancel(path);
    this.watcher.sync(this.watchedPaths());
    this.screen.note(`${experiment.label} was deleted; no longer watched`);
  }

  /** One rerun of one experiment; cancelled through `signal` when its files change again. */
  private async runOne(path: string, request: RerunRequest, signal: AbortSignal): Promise<void> {
    const experiment = this.experiments.get(path);
    if (!experiment) return;
    experiment.running = true;
    this.screen.refresh();
    try {
      await this.rerun(experiment, request, signal);
    } finally {
      experiment.running = false;
      if (!this.closing) this.screen.refresh();
    }
  }

  private async rerun(experiment: Experiment, request: RerunRequest, signal: AbortSignal): Promise<void> {
    const { path } = experiment;
    const outcome = await rerunExperiment(path, request, signal, {
      shared: this.shared,
      graph: this.graph,
      syncWatcher: () => this.watcher.sync(this.watchedPaths()),
      settings: this.options.run,
    });
    if (outcome.kind === 'skipped') return;
    if (outcome.kind === 'error') return this.showError(path, outcome.error);
    if (outcome.kind === 'cancelled') {
      if (this.closing) this.cancelled.push(`${experiment.label} (run ${outcome.runId})`);
      // Dropped (deleted) experiments need no notice; the session's end says it once.
      if (!this.closing && this.experiments.has(path)) {
        this.screen.note(`${experiment.label}: run ${outcome.runId} cancelled, restarting with the new files`);
      }
      return;
    }
    experiment.error = undefined;
    experiment.last = experiment.history.record({
      ...outcome.run,
      ...(request.onlyIndexes ? { onlyIndexes: request.onlyIndexes } : {}),
    });
    this.screen.block(formatRunBlock(experiment.label, experiment.last, this.blockOptions()));
  }

  private showError(path: string, error: unknown): void {
    const experiment = this.experiments.get(path);
    if (!experiment || this.closing) return;
    experiment.error = describeError(error, this.options.cwd);
    this.screen.block(formatErrorBlock(experiment.label, experiment.error, experiment.last));
  }

  /** Reloads the shared files; on failure their error is shown and nothing reruns until fixed. */
  private async reloadShared(withProject: boolean): Promise<boolean> {
    let loaded = await this.shared.reload(withProject);
    // A config or agentmark.json read half-written: once more after the save settles.
    if (!loaded && isFileError(this.shared.failure)) {
      await delay(SETTLE_MS);
      if (!this.closing) loaded = await this.shared.reload(withProject);
    }
    this.watcher.sync(this.watchedPaths());
    if (!loaded && this.shared.error) this.screen.block(formatSharedErrorBlock(this.shared.error.label, this.shared.error.message));
    return loaded;
  }

  private async reloadAndRerunAll(): Promise<void> {
    if (!(await this.reloadShared(true)) || this.closing) return;
    for (const folder of this.options.targets.folders) {
      for (const path of await findPromptFiles(folder).catch(() => [])) this.add(path);
    }
    for (const path of this.experiments.keys()) this.scheduler.request(path);
  }

  private onChanges(batch: ChangeBatch): void {
    if (this.closing) return;
    const labels = [...batch.keys()].map((path) => relative(this.options.cwd, path)).join(', ');
    const route = routeChanges(batch, {
      sharedPaths: this.shared.paths,
      watched: (path) => this.experiments.has(path),
      graph: this.graph,
      targets: this.options.targets,
    });
    if (route.shared) {
      const notice = this.notice(`changed: ${labels} → rerunning all`);
      void this.reloadAndRerunAll().then(() => this.untilIdle(notice));
      return;
    }
    for (const path of route.dropped) void this.drop(path);
    for (const path of route.added) this.add(path);
    if (route.affected.size === 0) return;
    const names = [...route.affected].map((path) => this.experiments.get(path)?.label ?? path);
    const notice = this.notice(`changed: ${labels} → rerunning ${names.join(', ')}`);
    for (const path of route.affected) this.scheduler.request(path);
    this.untilIdle(notice);
  }

  private onKey(action: KeyAction): void {
    if (action === 'quit') {
      if (!this.ready) this.quitEarly = true;
      return this.finish(0);
    }
    if (action === 'interrupt') return this.finish(130);
    if (action === 'rerun-all') {
      const notice = this.notice('rerunning all');
      if (!this.shared.config) void this.reloadAndRerunAll().then(() => this.untilIdle(notice));
      else {
        for (const path of this.experiments.keys()) this.scheduler.request(path);
        this.untilIdle(notice);
      }
      return;
    }
    const failed = [...this.experiments.values()].filter((e) => (e.last?.outcome.failedIndexes.size ?? 0) > 0);
    if (failed.length === 0) return this.screen.note('no failed rows to rerun');
    const notice = this.notice(`rerunning failed rows of ${failed.map((e) => e.label).join(', ')}`);
    for (const e of failed) this.scheduler.request(e.path, { onlyIndexes: e.last?.outcome.failedIndexes ?? new Set() });
    this.untilIdle(notice);
  }

  private notice(text: string): number {
    this.screen.note(text);
    return ++this.notices;
  }

  /**
   * The footer says what is happening now: a notice of reruns comes down once they have ended
   * (on a terminal; a log keeps its lines), unless a newer notice replaced it.
   */
  private untilIdle(notice: number): void {
    if (!this.screen.interactive) return;
    void this.scheduler.idle().then(() => {
      if (notice === this.notices && !this.closing) this.screen.note(`${this.watchingLine()} — ${KEY_HELP}`);
    });
  }

  private blockOptions(): BlockOptions {
    return { width: this.options.truncate ?? 100, cwd: this.options.cwd };
  }

  private watchingLine(): string {
    const files = this.watchedFiles().length;
    const experiments = this.experiments.size;
    return `watching ${files} file${files === 1 ? '' : 's'} for ${experiments} experiment${experiments === 1 ? '' : 's'}`;
  }

  private watchedFiles(): string[] {
    return [...new Set([...this.shared.files, ...this.graph.files(), ...this.options.targets.files])];
  }

  /** What the watcher follows: the files read, and the config's names should one appear. */
  private watchedPaths(): string[] {
    return [...new Set([...this.watchedFiles(), ...this.shared.paths])];
  }

  /** The whole state, for a terminal redraw. */
  private render(): string {
    return formatScreen({
      status: this.ready ? this.watchingLine() : 'starting',
      ...(this.shared.error ? { shared: this.shared.error } : {}),
      experiments: [...this.experiments.values()],
      block: this.blockOptions(),
    });
  }
}
