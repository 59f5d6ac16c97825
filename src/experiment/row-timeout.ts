import { readRowTimeout } from '../dataset/index.js';
import type { DatasetRow } from '../dataset/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { RunExperimentOptions } from './options.js';

/** @default 60 s, as AgentMark's own runner */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The per-call timeout of the prompt's rows: an explicit `--timeout` (options.timeoutMs), else the
 * prompt's `test_settings.timeout_seconds`, else 60 s.
 */
export function promptTimeoutMs(options: Pick<RunExperimentOptions, 'timeoutMs'>, prompt: Pick<LoadedPrompt, 'testSettings'>): number {
  const fromPrompt = prompt.testSettings.timeout_seconds;
  return options.timeoutMs ?? (fromPrompt === undefined ? DEFAULT_TIMEOUT_MS : Math.round(fromPrompt * 1000));
}

/** A row's own `timeout_seconds` wins over everything else, for that row's calls only. */
export function rowTimeoutMs(row: DatasetRow, fallbackMs: number): number {
  const own = readRowTimeout(row.metadata);
  return 'seconds' in own && own.seconds !== undefined ? Math.round(own.seconds * 1000) : fallbackMs;
}
