import type { RunExperimentOptions } from '../experiment/options.js';
import type { Project } from '../project/types.js';
import type { ScreenStream } from './screen.js';
import type { WatchTargets } from './watch-targets.js';

/** Run settings that come from flags; the session supplies project, config, prompt and signal. */
export type WatchRunSettings = Omit<
  RunExperimentOptions,
  'project' | 'config' | 'promptPath' | 'signal' | 'graceMs' | 'onlyIndexes' | 'onEvent' | 'resume' | 'datasetPath'
>;

export interface WatchSessionOptions {
  project: Project;
  targets: WatchTargets;
  /** The experiments to start with (absolute prompt paths). */
  prompts: readonly string[];
  run: WatchRunSettings;
  stdout: ScreenStream;
  stdin?: NodeJS.ReadStream;
  /** Paths on screen are relative to this. */
  cwd: string;
  /** Aborted on Ctrl-C: the session ends with 130. */
  signal: AbortSignal;
  /** @default 100 */
  debounceMs?: number;
  /** Cut inputs and outputs of flipped rows to this many characters. @default 100 */
  truncate?: number;
}
