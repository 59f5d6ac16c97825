import { relative } from 'node:path';
import type { ScoreSchema } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import { createRunId, RowKeySet, type FileFingerprint, type GitInfo, type LockOwner, type RunHandle, type RunProvenance, type RunManifest, type RunStore, type ShardRecord } from '../store/index.js';
import { scoreRanges } from '../scoring/index.js';
import { checkResume } from './check-resume.js';
import { derivedShardGroup } from '../shard/shard-group.js';
import { runLimitsOf } from './run-limit-gates.js';
import type { ModelCaller } from './model-caller.js';
import type { RunExperimentOptions } from './options.js';
import type { RowResult } from './types.js';

export interface OpenedExperiment {
  /** Owns the run folder (its lock) until closed. */
  handle: RunHandle;
  /** The (index, repeat) of the rows already in the results file (resume). */
  done: RowKeySet;
  /** The rows already stored, to replay to reporters (resume). */
  replay: (() => AsyncIterable<RowResult>) | undefined;
  /** The killed process whose lock this one took over (resume). */
  tookOverFrom: LockOwner | undefined;
  /** `rowKey`s of rows a batch job failed in an earlier attempt, sent again now (resume of a `--batch` run). */
  retry: Set<string>;
}

export interface RunFacts {
  prompt: LoadedPrompt;
  caller: Pick<ModelCaller, 'modelName' | 'promptHash' | 'settings' | 'timeoutMs'>;
  dataset: FileFingerprint;
  git: Promise<GitInfo | undefined> | undefined;
  /** The prompt's files (stored) and the config's hashes; only a new run records them. */
  provenance: () => Promise<RunProvenance>;
}

/**
 * A new run folder, or the one `--resume` names after checking it ran the same prompt, dataset,
 * model and rows. Either way the folder is locked to this process before anything is read or
 * written (STORE_RUN_LOCKED when another live process has it).
 */
export async function openRun(store: RunStore, options: RunExperimentOptions, facts: RunFacts): Promise<OpenedExperiment> {
  const { project } = options;
  const { prompt, caller, dataset } = facts;
  if (options.resume) {
    const manifest = await store.manifest(options.resume);
    checkResume(manifest, {
      promptPath: relative(project.root, prompt.path),
      promptHash: caller.promptHash,
      datasetPath: dataset.path,
      datasetHash: dataset.hash,
      model: caller.modelName,
      options: { repeat: options.repeat ?? 1, selection: options.selection ?? { kind: 'all' }, skipEval: options.skipEval ?? false },
      ...(options.shard ? { shard: options.shard } : {}),
    });
    // A batch run's rows whose job failed them (expired, cancelled, an error line), or failed one
    // of their judge requests, are sent again.
    const opened = await store.open(options.resume, manifest.batch ? { drop: batchFailed } : {});
    try {
      // Running again: the last attempt's record of its results no longer holds, and a kill now
      // must show as an interrupted run, not as the last attempt's end.
      await opened.handle.updateManifest({ status: 'running', integrity: undefined, failure: undefined });
    } catch (error) {
      await opened.handle.close();
      throw error;
    }
    return { handle: opened.handle, done: opened.done, replay: opened.rows, tookOverFrom: opened.tookOverFrom, retry: opened.dropped };
  }
  const now = options.now ?? Date.now;
  const manifest: RunManifest = {
    id: createRunId({ now, random: options.random ?? Math.random }),
    prompt: { path: relative(project.root, prompt.path), hash: caller.promptHash, name: prompt.name },
    dataset,
    model: caller.modelName,
    settings: caller.settings,
    options: manifestOptions(options, caller.timeoutMs, prompt),
    git: await facts.git,
    startedAt: new Date(now()).toISOString(),
    status: 'running',
    ...(options.shard ? { shard: shardRecord(options, prompt) } : {}),
    provenance: await facts.provenance(),
  };
  // A shard with a team store (or a group named) joins a shard group: its shards merge in the store.
  if (manifest.shard && (options.shardGroup !== undefined || options.storeUrl !== undefined)) {
    manifest.shard.group = options.shardGroup ?? derivedShardGroup(manifest, manifest.shard.count);
  }
  const handle = await store.create(manifest);
  return { handle, done: new RowKeySet(), replay: undefined, tookOverFrom: undefined, retry: new Set() };
}

function batchFailed(row: RowResult): boolean {
  return row.errorCode?.startsWith('MODEL_BATCH_') === true || Object.values(row.evals).some((scored) => scored.errorCode?.startsWith('MODEL_BATCH_') === true);
}

function shardRecord(options: RunExperimentOptions, prompt: LoadedPrompt): ShardRecord {
  const thresholds = prompt.testSettings.score_thresholds;
  const evals = options.skipEval ? [] : [...(prompt.testSettings.evals ?? []), ...(prompt.testSettings.turn_evals ?? [])];
  // What the run's own summary used beyond the evals, so a merge recomputes the same summary.
  const schemas = evals.map((name) => ({ name, schema: Object.hasOwn(options.project.scores, name) ? options.project.scores[name] : undefined }));
  const ranges = rangesOf(options, prompt);
  const ungated = schemas.filter(({ schema }) => schema?.gate === false).map(({ name }) => name);
  const limits = runLimitsOf(prompt);
  const typed = Object.fromEntries(schemas.filter(({ schema }) => schema !== undefined).map(({ name, schema }) => [name, schema as ScoreSchema]));
  const minimums = prompt.testSettings.judge_min_agreement;
  return {
    index: options.shard?.index ?? 1,
    count: options.shard?.count ?? 1,
    evals,
    ...(thresholds ? { scoreThresholds: thresholds } : {}),
    ...(Object.keys(ranges).length > 0 ? { scoreRanges: ranges } : {}),
    ...(ungated.length > 0 ? { ungated } : {}),
    ...(Object.keys(typed).length > 0 ? { schemas: typed } : {}),
    ...(minimums ? { judgeMinAgreement: minimums } : {}),
    ...(Object.keys(limits).length > 0 ? { runLimits: limits } : {}),
  };
}

function manifestOptions(options: RunExperimentOptions, timeoutMs: number, prompt: LoadedPrompt): Record<string, unknown> {
  const agent = options.agent ?? prompt.testSettings.agent;
  const ranges = rangesOf(options, prompt);
  return {
    concurrency: options.concurrency ?? 20,
    timeoutMs,
    maxRetries: options.maxRetries,
    repeat: options.repeat ?? 1,
    selection: options.selection ?? { kind: 'all' },
    skipEval: options.skipEval ?? false,
    cacheMode: options.cacheMode ?? 'use',
    evalTimeoutMs: options.evalTimeoutMs ?? 30_000,
    judgeModel: options.judgeModel,
    threshold: options.threshold,
    // Kept so `agentmark rerun` runs the same rows.
    ...(options.filter ? { filter: options.filter } : {}),
    ...(options.warmup ? { warmup: options.warmup } : {}),
    ...(options.warmupRepeats ? { warmupRepeats: options.warmupRepeats } : {}),
    // The config agent that ran the rows (`--agent`, else the prompt's test_settings.agent).
    ...(agent === undefined ? {} : { agent }),
    ...(options.batch ? { batch: { judgeLive: options.batch.judgeLive ?? false } } : {}),
    // `--rpm`/`--tpm`, so that `--resume` keeps to the same share of the key.
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    // The evals' score ranges, so the viewer bounds a running run's mean intervals as the
    // finished summary does (the summary is not there yet).
    ...(Object.keys(ranges).length > 0 ? { scoreRanges: ranges } : {}),
  };
}

/** Each eval's score range, by name (those a schema bounds). */
function rangesOf(options: RunExperimentOptions, prompt: LoadedPrompt): Record<string, readonly [number, number]> {
  const evals = options.skipEval ? [] : [...(prompt.testSettings.evals ?? [])];
  return Object.fromEntries(scoreRanges(evals.map((name) => ({ name, schema: Object.hasOwn(options.project.scores, name) ? options.project.scores[name] : undefined }))));
}
