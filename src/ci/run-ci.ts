import { compareRuns } from '../compare/index.js';
import { resolveDatasetPath } from '../dataset/index.js';
import { isAgentmarkError, UsageError } from '../errors/index.js';
import type { CacheMode, RunListener } from '../experiment/index.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import { loadPrompt } from '../prompt/index.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { ShardSpec } from '../shard/index.js';
import { openRunFolder, RunStore } from '../store/index.js';
import { sameFilesAtBase } from './base-files.js';
import { BaseSource } from './base-source.js';
import { chooseBase } from './choose-base.js';
import { ciExitCode } from './ci-exit-code.js';
import { CostGuard } from './cost-guard.js';
import { estimateLiveCalls } from './estimate-calls.js';
import { repositoryOf } from './git.js';
import { planPrompts, type BaseTree, type PlannedPrompt } from './plan-prompts.js';
import { runSide, sideOf, type SideSettings } from './run-side.js';
import type { CiPromptResult, CiReport } from './types.js';
import { traceStartup } from '../startup-trace.js';

export interface CiOptions {
  project: Project;
  config: LoadedConfig;
  /** Folder the prompt paths are relative to. */
  cwd: string;
  /** The team store's URL: a base run already there (made at the base commit) is used, with no model call, and the head run streams there. */
  storeUrl?: string;
  /** Prompt files or folders; none: every prompt with test_settings. */
  paths: readonly string[];
  /** `--base <git-ref>`; default: see chooseBase. */
  base?: string;
  /** Prompts with no base are `no base` instead of failing `ci` (exit 2). @default false */
  allowMissingBase?: boolean;
  /** @default false */
  failOnInconclusive?: boolean;
  /** Significance level of the comparisons' gate. @default 0.05 */
  alpha?: number;
  /** The drop, in points, the comparisons must be able to detect (compare's --max-drop). */
  maxDrop?: number;
  /** @default 'use' */
  cacheMode?: CacheMode;
  /** The response cache both sides share. */
  cacheDir: string;
  /** @default 20 */
  concurrency?: number;
  /** `--shard i/n`: every prompt's rows of this shard only, at base and head; join the parts with `mergeCiReports`. */
  shard?: ShardSpec;
  /** Stop live spending once the runs have cost this many USD. */
  maxCostUsd?: number;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Told of every run's events (progress), and of each prompt as it is done. */
  onEvent?: RunListener;
  onPrompt?: (result: CiPromptResult) => void;
  /** Told before any run: the prompts and the estimated live model calls (rows the cache cannot answer). */
  onPlan?: (plan: { prompts: number; liveCalls: number }) => void;
}

/**
 * `agentmark ci`: for every prompt, runs the head (the working tree) and finds or runs the base,
 * then compares the two with `compareRuns`. Fails closed: a base ref git does not know is an
 * input error before anything runs, and a prompt whose base cannot be had makes the exit 2
 * (unless `allowMissingBase`). The worktree made for the base is removed on every way out.
 */
export async function runCi(options: CiOptions): Promise<CiReport> {
  const { project, env } = options;
  const repo = await repositoryOf(project.root);
  const chosen = repo ? await chooseBase(project.root, options.base, env) : { tried: [] as string[] };
  if (chosen.ref === undefined && !options.allowMissingBase) throw noBaseError(repo === undefined, chosen.tried, options.base);
  const tree: BaseTree | undefined = repo && chosen.ref !== undefined ? { top: repo.top, prefix: repo.prefix, commit: chosen.commit } : undefined;
  traceStartup('ci base chosen');
  const plan = await planPrompts(project, options.cwd, options.paths, tree);
  traceStartup('ci prompts planned');
  const guard = new CostGuard(options.maxCostUsd);
  const settings: SideSettings = {
    cacheMode: options.cacheMode ?? 'use',
    cacheDir: options.cacheDir,
    concurrency: options.concurrency ?? 20,
    ...(options.shard ? { shard: options.shard } : {}),
    signal: AbortSignal.any([options.signal, guard.signal]),
    env,
    onEvent: async (event) => {
      guard.listen(event);
      await options.onEvent?.(event);
    },
  };
  const store = new RunStore(project.root);
  const base = tree ? new BaseSource(project, store, tree, settings, options.storeUrl, (message) => void options.onEvent?.({ type: 'warning', message })) : undefined;
  const prompts: CiPromptResult[] = [];
  let estimatedLiveCalls = 0;
  try {
    const prepared: Prepared[] = [];
    for (const planned of plan) prepared.push(await prepare(planned, options, tree));
    for (const p of prepared) estimatedLiveCalls += await estimate(p, options, settings, base);
    traceStartup('ci live calls estimated');
    options.onPlan?.({ prompts: plan.length, liveCalls: estimatedLiveCalls });
    for (const p of prepared) {
      const result: CiPromptResult =
        p.planned.headFile === undefined
          ? { path: p.planned.path, verdict: 'removed' }
          : settings.signal.aborted
            ? { path: p.planned.path, verdict: 'unfinished', note: stopNote(guard) }
            : await checkPrompt(p, { options, tree, base, settings, guard });
      traceStartup(`ci ${result.path} done`);
      prompts.push(result);
      options.onPrompt?.(result);
    }
  } finally {
    await base?.close();
  }
  const report: CiReport = {
    version: 1,
    base: { ...(chosen.ref === undefined ? {} : { ref: chosen.ref, commit: chosen.commit }), tried: chosen.tried },
    ...(options.shard ? { shard: options.shard } : {}),
    prompts,
    estimatedLiveCalls,
    ...(guard.reached && options.maxCostUsd !== undefined ? { costLimit: { maxUsd: options.maxCostUsd, spentUsd: guard.spentUsd } } : {}),
    exitCode: 0,
  };
  report.exitCode = ciExitCode(report, { allowMissingBase: options.allowMissingBase ?? false, failOnInconclusive: options.failOnInconclusive ?? false, interrupted: options.signal.aborted });
  return report;
}

interface CheckContext {
  options: CiOptions;
  tree: BaseTree | undefined;
  base: BaseSource | undefined;
  settings: SideSettings;
  guard: CostGuard;
}

/** A prompt loaded at head, with whether its files are all the same at base; or why it cannot run. */
interface Prepared {
  planned: PlannedPrompt;
  prompt?: LoadedPrompt;
  unchanged: boolean;
  error?: string;
}

async function prepare(planned: PlannedPrompt, options: CiOptions, tree: BaseTree | undefined): Promise<Prepared> {
  const { project, config } = options;
  if (planned.headFile === undefined) return { planned, unchanged: false };
  let prompt: LoadedPrompt;
  let files: string[];
  try {
    prompt = await loadPrompt(planned.headFile, { project, filters: config.filters });
    const dataset = prompt.testSettings.dataset;
    files = [...prompt.files, ...(dataset === undefined ? [] : [resolveDatasetPath(dataset, prompt.path, project)]), project.configPath, ...(config.path === undefined ? [] : [config.path])];
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    return { planned, unchanged: false, error: error.message };
  }
  const unchanged = planned.atBase && tree !== undefined && (await sameFilesAtBase(project.root, files, tree));
  return { planned, prompt, unchanged };
}

/** The live calls a prompt's runs will make: the head's, and the base's unless unchanged or stored. */
async function estimate(p: Prepared, options: CiOptions, settings: SideSettings, base: BaseSource | undefined): Promise<number> {
  if (p.prompt === undefined) return 0;
  let calls = 0;
  try {
    calls += await estimateLiveCalls(options.project, options.config, p.prompt, settings.cacheDir, settings.cacheMode);
  } catch (error) {
    // The run reports what is wrong with the prompt or its dataset.
    if (!isAgentmarkError(error)) throw error;
  }
  if (base && p.planned.atBase && !p.unchanged) calls += await base.estimate(p.planned.path, settings.cacheMode);
  return calls;
}

/** One prompt: base first (so the head's run is the prompt's `latest`), then head, then the comparison. */
async function checkPrompt(prepared: Prepared, { options, tree, base, settings, guard }: CheckContext): Promise<CiPromptResult> {
  const { project, config } = options;
  const { planned, prompt, unchanged } = prepared;
  const path = planned.path;
  if (planned.headFile === undefined) return { path, verdict: 'removed' };
  if (prompt === undefined) return { path, verdict: 'error', note: prepared.error ?? 'the prompt could not be loaded' };
  const found = planned.atBase && base && !unchanged ? await base.resultFor(path) : undefined;
  if (found && 'unfinished' in found) return { path, verdict: 'unfinished', note: stopNote(guard) };
  let outcome;
  try {
    // The head streams to the team store: a job on main leaves there the base of the next job's.
    outcome = await runSide(project, config, planned.headFile, { ...settings, ...(options.storeUrl === undefined ? {} : { storeUrl: options.storeUrl }) }, prompt);
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    return { path, verdict: 'error', note: error.message };
  }
  const head = sideOf(outcome.runId, outcome.summary);
  if (outcome.status !== 'completed') return { path, verdict: 'unfinished', head, note: stopNote(guard) };
  if (!planned.atBase) return { path, verdict: tree === undefined ? 'no base' : 'new', head, ...(tree === undefined ? { note: 'no base commit' } : {}) };
  if (unchanged) return { path, verdict: 'unchanged', head, base: { ...head, source: 'head' } };
  if (found === undefined) return { path, verdict: 'no base', head, note: 'no base commit' };
  if ('failure' in found) return { path, verdict: 'no base', head, note: found.failure };
  const baseSide = sideOf(found.run.manifest.id, found.run.manifest.summary ?? outcome.summary, found.source);
  let comparison;
  try {
    comparison = await compareRuns(found.run, await openRunFolder(outcome.runDir), {
      projectRoot: project.root,
      alpha: options.alpha ?? 0.05,
      failOnRegression: true,
      ...(options.maxDrop === undefined ? {} : { maxDrop: options.maxDrop }),
    });
  } catch (error) {
    if (!isAgentmarkError(error) || error.code !== 'USAGE_NO_PAIRED_ROWS') throw error;
    return { path, verdict: 'no base', head, base: baseSide, note: error.message };
  }
  return { path, verdict: comparison.gate.outcome, head, base: baseSide, comparison };
}

function stopNote(guard: CostGuard): string {
  return guard.reached ? `not finished: --max-cost ${guard.maxUsd} USD was reached` : 'not finished: interrupted';
}

function noBaseError(noRepository: boolean, tried: string[], given: string | undefined): UsageError {
  if (noRepository) {
    return new UsageError('USAGE_NO_BASE', 'no base to compare with: the project is not in a git repository', {
      hint: 'run ci in a git checkout, or add --allow-missing-base to report every prompt as `no base`',
    });
  }
  return new UsageError('USAGE_NO_BASE', `no base to compare with: git does not know ${tried.map((ref) => `"${ref}"`).join(' or ')}`, {
    hint: given === undefined ? 'give --base <git-ref>; in CI fetch the base first (actions/checkout with fetch-depth: 0); or add --allow-missing-base' : 'fetch it first (e.g. git fetch origin main), or add --allow-missing-base',
  });
}
