import { ModelCallError, UsageError } from '../errors/index.js';
import { cacheKey } from '../model/cache-key.js';
import { splitModelName } from '../model/index.js';
import type { JudgeTransport } from '../experiment/types.js';
import type { ModelRequest, ModelResponse } from '../model/types.js';
import type { BatchAnswer, BatchAnswers } from './batch-answers.js';
import { judgeFailureOf } from './batch-failure.js';
import { Deferred } from './deferred.js';
import type { ProviderBridge } from './provider-bridge.js';
import type { RequestParts } from './request-parts.js';
import type { BatchEndpoint, BatchJobRecord } from './types.js';

/** What the run's downloaded jobs hold: answers by custom id, the part each id was sent in, the jobs by part. */
export interface Lookup {
  answers: BatchAnswers;
  partOf: Map<string, number>;
  jobs: BatchJobRecord[];
}

/**
 * What a pass does with a judge request that has no answer yet: `defer` (the row waits; used
 * while model answers may still be missing, so that judge lines only go in judge jobs),
 * `capture` (write it to a judge request file; the row waits for that job), `fail` (no round
 * is left: the eval errors).
 */
export type JudgeMode = 'defer' | 'capture' | 'fail';

/** What one row's judge calls did in a pass. */
export interface JudgeRowState {
  /** The row's `rowKey`: which row counts a judge answer as paid. */
  key: string;
  /** The row was sent with `--resume` because a job failed it: its failed judge requests are sent again. */
  retry: boolean;
  /** A judge request of the row has no answer yet: the row is not recorded in this pass. */
  deferred: boolean;
  /** Messages of the batch failures thrown to its evals, with their codes (the row's evals carry them). */
  failures: Map<string, string>;
}

/**
 * `judge-<cache key>`: the judge call's own response-cache key (repeat 0, as live judge calls
 * use), so one request asked by two rows is one line, and a resume finds the same id again.
 */
export function judgeIdOf(request: ModelRequest): string {
  return `judge-${cacheKey(request, 0).slice(0, 48)}`;
}

export interface JudgeRoundOptions {
  mode: JudgeMode;
  bridge: ProviderBridge;
  lookup: Lookup;
  /** Where captured judge lines go (`capture` mode). */
  parts: RequestParts | undefined;
  /** Jobs before this part were made by an earlier attempt of the run. */
  attemptStart: number;
  runId: string;
  /** A batch answer body read as a response (batch price). */
  answerOf: (request: ModelRequest, body: unknown) => Promise<ModelResponse>;
  /**
   * Judge id → key of the row that counts its answer as paid, shared by the attempt's passes:
   * an answer is paid for once, by the first row to use it, however often it is read back from
   * the cache (by that row in a later round, or by another row asking the same request).
   */
  owners: Map<string, string>;
}

/**
 * The judge transport of one pass of a `--batch` run: a judge call that missed the response
 * cache is answered from the run's judge jobs, captured into a judge request file (the exact
 * body the live call would post, built by the same provider), or fails with the reason its job
 * gave. A call with no answer yet throws Deferred after marking its row, so the eval's error
 * never reaches the results: the row is scored again once the answer is there.
 */
export class JudgeRound {
  readonly #options: JudgeRoundOptions;
  readonly #captured = new Set<string>();
  /** The endpoint the captured lines post to. */
  endpoint: BatchEndpoint | undefined;
  /** A judge model the Batch API cannot run (known only once a judge prompt is rendered): the run stops with it. */
  fatal: UsageError | undefined;

  constructor(options: JudgeRoundOptions) {
    this.#options = options;
  }

  forRow(row: JudgeRowState): JudgeTransport {
    const answer = async (request: ModelRequest): Promise<ModelResponse> => {
      const { lookup, mode, runId } = this.#options;
      const id = judgeIdOf(request);
      const found = lookup.answers.get(id);
      const part = lookup.partOf.get(id);
      const job = part === undefined ? undefined : lookup.jobs[part];
      const again = job === undefined || (row.retry && !found?.ok && job.part < this.#options.attemptStart);
      if (!again) {
        if (found?.ok) {
          const response = await this.#options.answerOf(request, found.body);
          // Another row asking the same request counted this answer (one line, paid once): here it costs nothing, like a cached one.
          return this.#own(row, id) ? response : { ...response, cached: true };
        }
        throw noted(row, judgeFailureOf(id, job, found, runId));
      }
      if (mode === 'fail') {
        throw noted(row, new ModelCallError('MODEL_BATCH_NOT_SENT', `judge request ${id} was asked after the last judge round, so no batch job holds it (continue with --resume ${runId} to send it)`));
      }
      if (mode === 'capture' && !this.#captured.has(id)) {
        this.#captured.add(id);
        await this.#capture(id, request);
      }
      row.deferred = true;
      throw new Deferred();
    };
    // A cached answer from this run's own judge job that no other row counted yet is this row's.
    const owns = (request: ModelRequest): boolean => {
      const id = judgeIdOf(request);
      return this.#options.lookup.answers.isOk(id) && this.#own(row, id);
    };
    return Object.assign(answer, { owns });
  }

  /** Whether `row` counts the answer to `id` as paid: the first row to use it does. */
  #own(row: JudgeRowState, id: string): boolean {
    const owner = this.#options.owners.get(id);
    if (owner === undefined) this.#options.owners.set(id, row.key);
    return (owner ?? row.key) === row.key;
  }

  async #capture(id: string, request: ModelRequest): Promise<void> {
    const { provider } = splitModelName(request.modelName, ['openai']);
    const api = this.#options.bridge.api;
    if (provider !== api) {
      const service = api === 'anthropic' ? "Anthropic's Message Batches API" : 'the OpenAI Batch API';
      this.fatal ??= new UsageError('USAGE_BATCH_JUDGE', `--batch sends judge calls to ${service} too, but the judge model ${request.modelName} is served by the "${provider}" provider`, {
        hint: 'add --judge-live: judge calls then run live, as each batch answer is scored',
      });
      return;
    }
    const captured = await this.#options.bridge.capture(request);
    this.endpoint ??= captured.endpoint;
    this.#options.parts?.add(this.#options.bridge.line(id, captured));
  }
}

function noted(row: JudgeRowState, error: ModelCallError): ModelCallError {
  row.failures.set(error.message, error.code);
  return error;
}
