import { join } from 'node:path';
import type { ModelRequest, ModelResponse } from '../model/types.js';
import { customIdOf, readAnswers, requestPartOf } from './batch-answers.js';
import { ModelCallError } from '../errors/index.js';
import { splitModelName } from '../model/index.js';
import { RowKeySet } from '../store/index.js';
import { AnthropicBatchClient } from './anthropic-client.js';
import { BatchClient, type BatchApi } from './batch-client.js';
import { downloadResults, isFinal, pollJobs, submitJobs, type JobsContext } from './batch-jobs.js';
import { processPass } from './batch-pass.js';
import { batchCostOf } from './batch-price.js';
import { Deferred } from './deferred.js';
import { JudgeRound, type JudgeMode, type Lookup } from './judge-round.js';
import { ProviderBridge } from './provider-bridge.js';
import { RequestParts } from './request-parts.js';
import type { BatchRowsContext } from './batch-rows-context.js';
import type { BatchApiName, BatchEndpoint, BatchJobRecord, BatchManifest } from './types.js';

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/**
 * Judge rounds per attempt: a built-in judge asks at most twice per eval (once more when its
 * first answer breaks the schema, with a changed request), so two rounds answer every eval.
 */
const JUDGE_ROUNDS = 2;

/**
 * The rows of a `--batch` run. Rows answered by the cache (or by a job an earlier attempt made)
 * are processed at once; the others' requests are written to request files, submitted as jobs,
 * polled, and their answers then go through the very row pipeline a live call feeds (cache,
 * evals, results, reports). LLM-judge calls that miss the cache go the same way in a later round
 * of judge jobs, once the model answers they judge are known (unless `--judge-live`). Returns
 * false when interrupted while jobs were still running.
 */
export async function runBatchRows(context: BatchRowsContext): Promise<boolean> {
  const { handle } = context;
  const dir = join(handle.dir, 'batch');
  const { api, bridge, client } = batchServiceOf(context);
  const state: BatchManifest = handle.manifest.batch ?? { ...(api === 'anthropic' ? { api } : {}), endpoint: api === 'anthropic' ? '/v1/messages' : '/v1/chat/completions', baseURL: client.baseURL, jobs: [] };
  const jobsContext = (endpoint: BatchEndpoint): JobsContext => ({
    client,
    dir,
    runId: handle.id,
    endpoint,
    save: async () => {
      await handle.updateManifest({ batch: { ...state, jobs: state.jobs.map((job) => ({ ...job })) } });
    },
    progress: (jobs) => context.emit({ type: 'batch-progress', jobs: jobs.map((job) => ({ ...job })) }),
    pollMs: context.settings.pollMs,
    signal: context.dispatch,
  });
  const answerOf = async (request: ModelRequest, body: unknown): Promise<ModelResponse> => {
    const response = await bridge.answer(request, body);
    return { ...response, latencyMs: 0, retries: 0, batch: true, costUsd: batchCostOf(request.modelName, response.usage, context.prices) };
  };
  /** Records new request files as jobs (saved before anything is sent), then submits, polls and downloads them. */
  const sendJobs = async (added: BatchJobRecord[], endpoint: BatchEndpoint): Promise<boolean> => {
    state.baseURL = client.baseURL;
    // Anthropic: the beta features the live requests asked for go with the create request.
    for (const job of added) {
      if (bridge.betas.size > 0) job.betas = [...bridge.betas].sort();
      if (bridge.api === 'anthropic') job.endpoint = '/v1/messages';
    }
    state.jobs.push(...added);
    const jobs = jobsContext(state.endpoint);
    await jobs.save();
    await jobs.progress(state.jobs);
    return finishJobs(added, jobsContext(endpoint));
  };

  const leftRunning = async (): Promise<false> => {
    await context.emit({
      type: 'warning',
      message: `the batch jobs keep running on the server: continue with --resume ${handle.id} (it picks up the same jobs, never submits them again), or cancel them with \`agentmark batches cancel ${handle.id}\``,
    });
    return false;
  };
  // Jobs an earlier attempt submitted (model and judge) are finished first: their answers are paid for.
  if (!(await finishJobs(state.jobs, jobsContext(state.endpoint)))) return leftRunning();

  const attemptStart = state.jobs.length;
  // One bit a row × repeat: a million-row batch run goes over its rows several times.
  const recorded = new RowKeySet();
  const parts = new RequestParts(dir, context.settings.limits, state.jobs.length);
  let endpoint: BatchEndpoint | undefined;
  // Which row counts each judge answer of this attempt as paid, across its passes.
  const judgeOwners = new Map<string, string>();
  const judgeRound = (mode: JudgeMode, lookup: Lookup, judgeParts?: RequestParts): JudgeRound | undefined =>
    context.judgeLive ? undefined : new JudgeRound({ mode, bridge, lookup, parts: judgeParts, attemptStart, runId: handle.id, answerOf, owners: judgeOwners });
  // Pass 1: rows with every answer at hand are recorded; model requests not yet sent are captured.
  // A judge request with no answer waits (deferred): judge lines go only into judge jobs.
  let lookup = await lookupOf(dir, state.jobs);
  let waiting = await processPass(context, recorded, {
    lookup,
    answerOf,
    judges: judgeRound('defer', lookup),
    send: async (item, request) => {
      const captured = await bridge.capture(request);
      endpoint ??= captured.endpoint;
      parts.add(bridge.line(customIdOf(item.row.index, item.repeat), captured));
      throw new Deferred();
    },
  });
  const added = parts.finish();
  if (context.dispatch.aborted) return true;
  if (added.length > 0 && endpoint !== undefined) {
    state.endpoint = endpoint;
    if (!(await sendJobs(added, endpoint))) return leftRunning();
  }

  // Then judge rounds: each pass scores the rows with the answers known so far and captures the
  // judge requests still unanswered into judge jobs; the last pass leaves no row waiting.
  for (let round = 0; waiting > 0; round++) {
    lookup = await lookupOf(dir, state.jobs);
    const judgeParts = round < JUDGE_ROUNDS ? new RequestParts(dir, context.settings.limits, state.jobs.length) : undefined;
    const judges = judgeRound(judgeParts === undefined ? 'fail' : 'capture', lookup, judgeParts);
    waiting = await processPass(context, recorded, { lookup, answerOf, judges, send: undefined });
    const judgeJobs = (judgeParts?.finish() ?? []).map((job): BatchJobRecord => ({ ...job, kind: 'judge', ...(judges?.endpoint ? { endpoint: judges.endpoint } : {}) }));
    if (judges?.fatal) throw judges.fatal;
    if (context.dispatch.aborted || judgeJobs.length === 0) return true;
    if (!(await sendJobs(judgeJobs, judges?.endpoint ?? state.endpoint))) return leftRunning();
  }
  return true;
}

/**
 * Whose batch API the run uses (an earlier attempt's choice, else the model's provider: `anthropic/…`
 * goes to Anthropic's Message Batches API, everything else to OpenAI's Batch API), the bridge to
 * its provider and the client of its batch endpoints. Jobs an earlier attempt made live where it
 * sent them, whatever the base URL is now.
 */
function batchServiceOf(context: BatchRowsContext): { api: BatchApiName; bridge: ProviderBridge; client: BatchApi } {
  const recorded = context.handle.manifest.batch;
  const api: BatchApiName = recorded !== undefined ? (recorded.api ?? 'openai') : splitModelName(context.modelName, ['openai']).provider === 'anthropic' ? 'anthropic' : 'openai';
  const common = { env: context.env, tools: context.tools, prices: context.prices };
  if (api === 'anthropic') {
    const apiKey = context.env.ANTHROPIC_API_KEY?.trim() || undefined;
    if (apiKey === undefined) {
      throw new ModelCallError('MODEL_NO_API_KEY', `no Anthropic API key for the batch jobs of ${context.modelName}`, {
        hint: 'set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another server than api.anthropic.com)',
      });
    }
    const baseURL = context.env.ANTHROPIC_BASE_URL?.trim().replace(/\/+$/, '') || ANTHROPIC_BASE_URL;
    return {
      api,
      bridge: new ProviderBridge({ ...common, api, baseURL, baseURLSet: true, projectRoot: context.projectRoot }),
      client: new AnthropicBatchClient({ baseURL: recorded?.baseURL ?? baseURL, apiKey, signal: context.dispatch }),
    };
  }
  const envBase = context.env.OPENAI_BASE_URL?.trim() || undefined;
  const baseURL = envBase ?? context.configBaseURL ?? DEFAULT_BASE_URL;
  return {
    api,
    bridge: new ProviderBridge({ ...common, baseURL, baseURLSet: envBase !== undefined || context.configBaseURL !== undefined }),
    client: new BatchClient({ baseURL: recorded?.baseURL ?? baseURL, apiKey: context.env.OPENAI_API_KEY?.trim() || undefined, signal: context.dispatch }),
  };
}

async function lookupOf(dir: string, jobs: BatchJobRecord[]): Promise<Lookup> {
  return { answers: await readAnswers(dir, jobs), partOf: await requestPartOf(dir, jobs), jobs };
}

/** Submits, polls and downloads; false when Ctrl-C came first (whatever request it cut short). */
async function finishJobs(jobs: BatchJobRecord[], context: JobsContext): Promise<boolean> {
  if (jobs.length === 0) return true;
  try {
    await submitJobs(jobs, context);
    if (!jobs.every(isFinal) && !(await pollJobs(jobs, context))) return false;
    await downloadResults(jobs, context);
    return true;
  } catch (error) {
    if (context.signal?.aborted) return false;
    throw error;
  }
}
