import { compareRuns } from '../compare/index.js';
import { isAgentmarkError, UsageError } from '../errors/index.js';
import { mergeShards } from '../shard/index.js';
import { openRunFolder } from '../store/index.js';
import { ciExitCode } from './ci-exit-code.js';
import { sideOf } from './run-side.js';
import type { CiPromptResult, CiReport, CiVerdict } from './types.js';

export interface MergeCiOptions {
  /** The project whose run store holds every part's runs (downloaded from each job's `.agentmark/runs/`). */
  projectRoot: string;
  allowMissingBase?: boolean;
  failOnInconclusive?: boolean;
  alpha?: number;
  maxDrop?: number;
}

/** Verdicts that say a part could not be checked; any one of them is the prompt's. */
const UNCHECKED: readonly CiVerdict[] = ['error', 'unfinished', 'no base'];

/**
 * `agentmark ci merge`: joins the reports of `ci --shard i/n` (one per part, every part of one
 * base commit) into one. A prompt's head shards are merged into one run with `mergeShards`, its
 * base shards likewise, and the two compared with `compareRuns`: the statistics are those of the
 * whole dataset, never put together from the parts' figures. Refuses (exit 2) parts of
 * different checks, a part given twice and a missing part.
 */
export async function mergeCiReports(parts: readonly CiReport[], options: MergeCiOptions): Promise<CiReport> {
  checkParts(parts);
  const first = parts[0] as CiReport;
  const paths = [...new Set(parts.flatMap((part) => part.prompts.map((p) => p.path)))].sort();
  const prompts: CiPromptResult[] = [];
  for (const path of paths) prompts.push(await mergePrompt(path, parts.map((part) => part.prompts.find((p) => p.path === path)), options));
  const report: CiReport = { version: 1, base: first.base, merged: { count: parts.length }, prompts, exitCode: 0 };
  const spent = parts.filter((part) => part.costLimit !== undefined);
  if (spent.length > 0) report.costLimit = { maxUsd: spent[0]?.costLimit?.maxUsd ?? 0, spentUsd: spent.reduce((sum, part) => sum + (part.costLimit?.spentUsd ?? 0), 0) };
  report.exitCode = ciExitCode(report, { allowMissingBase: options.allowMissingBase ?? false, failOnInconclusive: options.failOnInconclusive ?? false, interrupted: false });
  return report;
}

function checkParts(parts: readonly CiReport[]): void {
  const first = parts[0];
  if (!first) throw new UsageError('USAGE_MISSING_RUN', 'ci merge needs the json reports of the parts (ci --shard i/n --format json -o part-i.json)');
  const unsharded = parts.findIndex((part) => part.version !== 1 || part.shard === undefined);
  if (unsharded !== -1) throw new UsageError('USAGE_NOT_A_SHARD', `report ${unsharded + 1} is not a part of a sharded ci (made without --shard)`);
  const count = first.shard?.count ?? 0;
  const other = parts.find((part) => part.shard?.count !== count || part.base.commit !== first.base.commit);
  if (other) throw new UsageError('USAGE_SHARD_MISMATCH', `the reports are parts of different checks (shard ${other.shard?.index}/${other.shard?.count} at base ${other.base.commit?.slice(0, 12) ?? 'none'}, shard ${first.shard?.index}/${count} at base ${first.base.commit?.slice(0, 12) ?? 'none'})`);
  const indexes = parts.map((part) => part.shard?.index ?? 0);
  const twice = indexes.find((index, i) => indexes.indexOf(index) !== i);
  if (twice !== undefined) throw new UsageError('USAGE_SHARD_TWICE', `shard ${twice}/${count} is given twice`);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !indexes.includes(index));
  if (missing.length > 0) throw new UsageError('USAGE_SHARD_MISSING', `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing: a check of part of the rows cannot pass for all of them`, { hint: 'give every part\'s report' });
}

async function mergePrompt(path: string, results: ReadonlyArray<CiPromptResult | undefined>, options: MergeCiOptions): Promise<CiPromptResult> {
  const present = results.filter((r): r is CiPromptResult => r !== undefined);
  const bad = present.find((r) => UNCHECKED.includes(r.verdict));
  if (bad) return { path, verdict: bad.verdict, ...(bad.note === undefined ? {} : { note: bad.note }) };
  if (present.length < results.length) return { path, verdict: 'error', note: 'not in every part\'s report' };
  const verdicts = new Set(present.map((r) => r.verdict));
  if (verdicts.has('removed')) return { path, verdict: 'removed' };
  const heads = present.map((r) => r.head?.runId).filter((id): id is string => id !== undefined);
  const merge = async (ids: string[]) => mergeShards(ids, { projectRoot: options.projectRoot });
  let head;
  try {
    head = await merge(heads);
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    return { path, verdict: 'error', note: `the head's shards could not be merged: ${error.message}` };
  }
  const headSide = sideOf(head.manifest.id, head.manifest.summary as NonNullable<typeof head.manifest.summary>);
  if (verdicts.has('new')) return { path, verdict: 'new', head: headSide };
  if (verdicts.size === 1 && verdicts.has('unchanged')) return { path, verdict: 'unchanged', head: headSide, base: { ...headSide, source: 'head' } };
  // Compared in some parts, unchanged in none (a prompt is unchanged in every part or in none).
  let base;
  try {
    base = await merge(present.map((r) => r.base?.runId).filter((id): id is string => id !== undefined));
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    return { path, verdict: 'no base', head: headSide, note: `the base's shards could not be merged: ${error.message}` };
  }
  const comparison = await compareRuns(await openRunFolder(base.dir), await openRunFolder(head.dir), {
    projectRoot: options.projectRoot,
    alpha: options.alpha ?? 0.05,
    failOnRegression: true,
    ...(options.maxDrop === undefined ? {} : { maxDrop: options.maxDrop }),
  });
  const baseSide = sideOf(base.manifest.id, base.manifest.summary as NonNullable<typeof base.manifest.summary>, 'store');
  return { path, verdict: comparison.gate.outcome, head: headSide, base: baseSide, comparison };
}
