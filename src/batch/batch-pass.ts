import type { DatasetRow } from '../dataset/types.js';
import type { RunEvent } from '../experiment/events.js';
import { runPool } from '../experiment/pool.js';
import { processRow, RowAborted, type RowPipeline } from '../experiment/row-pipeline.js';
import type { RowResult } from '../experiment/types.js';
import type { ModelRequest, ModelResponse } from '../model/types.js';
import { rowKey, type RowKeySet } from '../store/index.js';
import { customIdOf } from './batch-answers.js';
import { failureOf } from './batch-failure.js';
import { Deferred } from './deferred.js';
import type { JudgeRound, JudgeRowState, Lookup } from './judge-round.js';
import type { BatchRowsContext } from './batch-rows-context.js';

export interface PassOptions {
  lookup: Lookup;
  /** Given in the first pass only: a row whose model request has no job yet goes here (and throws Deferred). */
  send: ((item: { row: DatasetRow; repeat: number }, request: ModelRequest) => Promise<ModelResponse>) | undefined;
  /** A batch answer body read as a response (batch price). */
  answerOf: (request: ModelRequest, body: unknown) => Promise<ModelResponse>;
  /** Where this pass's judge calls go; undefined when they run live (`--judge-live`). */
  judges: JudgeRound | undefined;
}

/**
 * One pass over the rows still to run. A row whose job answered is processed with that answer; one
 * whose job failed it (or expired, was cancelled, left it out) is an errored row saying why; any
 * other row (never sent, or sent again on resume) goes to `send` when given. A row left waiting
 * (its model or judge request is in a job still to come) is not recorded, nor are its eval
 * events sent; returns how many rows wait.
 */
export async function processPass(context: BatchRowsContext, recorded: RowKeySet, pass: PassOptions): Promise<number> {
  const { lookup, send } = pass;
  let waiting = 0;
  await runPool(
    context.items(),
    context.concurrency,
    async (item) => {
      const key = rowKey(item.row.index, item.repeat);
      if (recorded.has(item.row.index, item.repeat)) return;
      const id = customIdOf(item.row.index, item.repeat);
      const state: JudgeRowState = { key, retry: context.retry.has(key), deferred: false, failures: new Map() };
      const evalEvents: RunEvent[] = [];
      const pipeline: RowPipeline = {
        ...context.pipeline,
        // Held until the row is known to be recorded: a waiting row's evals ran without their judge.
        emit: (event) => (event.type === 'eval-end' ? void evalEvents.push(event) : context.pipeline.emit(event)),
        call: async (request, repeat) => {
          const answer = lookup.answers.get(id);
          const response = await context.callWith(request, repeat, async () => {
            const part = lookup.partOf.get(id);
            const job = part === undefined ? undefined : lookup.jobs[part];
            // A row sent again on resume whose earlier answer failed; an answer that came is used.
            if (send !== undefined && ((state.retry && !answer?.ok) || job === undefined)) {
              try {
                return await send(item, request);
              } catch (error) {
                // Only a request that went into a file waits for its job; one that could not (too large) is a row error.
                if (error instanceof Deferred) state.deferred = true;
                throw error;
              }
            }
            if (answer?.ok) return pass.answerOf(request, answer.body);
            throw failureOf(id, job, answer, context.handle.id);
          });
          // Cached by an earlier pass (or attempt) of this very run, from this row's own job: it is a batch answer.
          return response.cached && answer?.ok ? { ...response, cached: false } : response;
        },
      };
      const run = (): Promise<RowResult> => processRow(pipeline, item.row, item.repeat, context.rowSignal);
      let result: RowResult;
      try {
        result = pass.judges === undefined ? await run() : await context.judgeWith(pass.judges.forRow(state), run);
      } catch (error) {
        if (error instanceof RowAborted) return;
        throw error;
      }
      if (state.deferred) {
        waiting += 1;
        return;
      }
      for (const event of evalEvents) await context.pipeline.emit(event);
      if (state.failures.size > 0) withFailureCodes(result, state.failures);
      recorded.add(item.row.index, item.repeat);
      await context.record(result);
    },
    context.dispatch,
  );
  return waiting;
}

/** Marks the evals whose error is a judge job's failure with its code, so `--resume` runs the row again. */
function withFailureCodes(result: RowResult, failures: Map<string, string>): void {
  for (const scored of Object.values(result.evals)) {
    const code = scored.error === undefined ? undefined : failures.get(scored.error);
    if (code !== undefined) scored.errorCode = code;
  }
}
