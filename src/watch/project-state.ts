import { join, relative } from 'node:path';
import { CLIENT_FILES, CONFIG_FILES, loadConfig, loadProject, type LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import { describeError, errorFiles } from './experiment-files.js';

/**
 * agentmark.json and the config, which every experiment shares: a change to either reloads
 * both and reruns everything. When a reload fails the error is kept for the screen, nothing
 * can run, and the files stay watched so that fixing them is noticed.
 */
export class ProjectState {
  config: LoadedConfig | undefined;
  error: { label: string; message: string } | undefined;
  /** What the last failed reload threw (undefined after a good one). */
  failure: unknown;
  private watched = new Set<string>();

  constructor(
    public project: Project,
    private readonly cwd: string,
  ) {}

  /** agentmark.json, the config and every project module the config imports. */
  get files(): ReadonlySet<string> {
    return this.watched;
  }

  /**
   * `files` plus every name the config (or AgentMark client) may have, present or not: a config created, restored
   * or renamed back under any of them changes what loads, so its arrival reloads everything.
   */
  get paths(): ReadonlySet<string> {
    return new Set([...this.watched, ...[...CONFIG_FILES, ...CLIENT_FILES].map((name) => join(this.project.root, name))]);
  }

  /** Loads the config (and agentmark.json again when `withProject`); false when either fails. */
  async reload(withProject: boolean): Promise<boolean> {
    const before = [this.project.configPath, ...(this.config?.files ?? []), ...this.watched];
    try {
      if (withProject) this.project = await loadProject(this.project.root);
      this.config = await loadConfig(this.project, { client: true, fsCache: true });
      this.error = undefined;
      this.failure = undefined;
      this.watched = new Set([this.project.configPath, ...this.config.files]);
      return true;
    } catch (error) {
      this.config = undefined;
      this.failure = error;
      const label = relative(this.cwd, errorFiles(error)[0] ?? this.project.configPath);
      this.error = { label, message: describeError(error, this.cwd) };
      // A failed load cannot list the config's imports: keep the last known ones.
      this.watched = new Set([...before, ...errorFiles(error)]);
      return false;
    }
  }
}
