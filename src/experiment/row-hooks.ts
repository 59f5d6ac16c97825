import { rowLabels } from '../dataset/index.js';
import type { DatasetRow } from '../dataset/types.js';
import type { HookRow, SuiteHooks } from '../project/hook-types.js';
import type { RunListener } from './events.js';
import { emptyResult } from './row-pipeline.js';
import { runHook } from './run-hook.js';
import type { RowResult } from './types.js';

export interface RowHookSettings {
  hooks: SuiteHooks;
  runId: string;
  timeoutMs: number;
  emit: RunListener;
}

/**
 * One row × repeat between its hooks: `setup` → the row (call and evals) → `onFail` for each
 * eval that did not pass → `teardown`, which runs whatever happened, cancellation included.
 * A failed `setup` makes the row an errored row without a call; a failed `teardown` or `onFail`
 * is recorded in `hookErrors` and said as a warning, and the row keeps its verdict.
 */
export async function runRowWithHooks(settings: RowHookSettings, row: DatasetRow, repeat: number, runRow: () => Promise<RowResult>): Promise<RowResult> {
  const { hooks, timeoutMs } = settings;
  const hookRow = toHookRow(row, repeat);
  const hookErrors: string[] = [];
  const note = async (error: string): Promise<void> => {
    hookErrors.push(error);
    await settings.emit({ type: 'warning', message: `row ${row.index}${repeat > 0 ? `.${repeat}` : ''}: ${error}` });
  };

  let context: unknown;
  let result: RowResult;
  const setup = hooks.setup;
  const outcome = setup ? await runHook('setup', (signal) => setup(hookRow, { runId: settings.runId, signal }), timeoutMs) : undefined;
  try {
    if (outcome && !outcome.ok) {
      result = { ...emptyResult(row, repeat), error: outcome.error, errorCode: 'HOOK_SETUP_FAILED' };
    } else {
      context = outcome?.value;
      result = await runRow();
    }
  } catch (error) {
    // Interrupted or held: the row is not recorded now, but what setup opened is still closed.
    const teardown = hooks.teardown;
    if (teardown) await runHook('teardown', () => teardown(context, { ...emptyResult(row, repeat), error: 'cancelled' }), timeoutMs);
    throw error;
  }

  const onFail = hooks.onFail;
  if (onFail) {
    for (const [name, scored] of Object.entries(result.evals)) {
      if (scored.passed !== false && scored.error === undefined) continue;
      const failed = await runHook('onFail', () => onFail(hookRow, name, scored), timeoutMs);
      if (!failed.ok) await note(`${failed.error} (eval ${name})`);
    }
  }
  const teardown = hooks.teardown;
  if (teardown) {
    const finished = result;
    const closed = await runHook('teardown', () => teardown(context, finished), timeoutMs);
    if (!closed.ok) await note(closed.error);
  }
  return hookErrors.length === 0 ? result : { ...result, hookErrors };
}

function toHookRow(row: DatasetRow, repeat: number): HookRow {
  const { name, tags } = rowLabels(row.metadata);
  return {
    index: row.index,
    repeat,
    ...(name === undefined ? {} : { name }),
    tags,
    input: row.input,
    ...(row.hasExpectedOutput ? { expectedOutput: row.expectedOutput } : {}),
    metadata: row.metadata,
  };
}
