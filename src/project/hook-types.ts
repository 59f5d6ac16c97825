import type { RowResult, RunSummary } from '../experiment/types.js';
import type { RunInfo } from '../experiment/events.js';

/** What `setup` and `onFail` learn about a row. */
export interface HookRow {
  index: number;
  repeat: number;
  /** The row's `name`, when it has one. */
  name?: string;
  tags: string[];
  input: Record<string, unknown>;
  expectedOutput?: unknown;
  metadata: Record<string, unknown>;
}

/** Second argument of `setup`. `signal` is aborted once the hook is over: finished, or cut off by the timeout. */
export interface HookContext {
  runId: string;
  signal: AbortSignal;
}

/**
 * Suite hooks in `agentmark.config.ts`, each sync or async. They run in the main thread (what
 * `setup` returns is handed to `teardown` as it is, connections and all), cut off after
 * `--eval-timeout` like a scorer; a throw or a timeout is recorded and the run goes on.
 */
export interface SuiteHooks {
  /** Before each row × repeat, outside its model-call timeout; the value returned goes to `teardown`. */
  setup?: (row: HookRow, context: HookContext) => unknown;
  /** After each row × repeat, whatever happened (passed, failed, errored, timed out, setup failed). */
  teardown?: (context: unknown, result: RowResult) => unknown;
  /** Once, before the first row. */
  beforeAll?: (run: RunInfo) => unknown;
  /** Once, after the last row, with the summary. */
  afterAll?: (run: RunInfo, summary: RunSummary) => unknown;
  /** For each eval of a row that did not pass (failed or errored); e.g. to file a ticket. */
  onFail?: (row: HookRow, evalName: string, result: RowResult['evals'][string]) => unknown;
}

export const HOOK_NAMES = ['setup', 'teardown', 'beforeAll', 'afterAll', 'onFail'] as const satisfies ReadonlyArray<keyof SuiteHooks>;
