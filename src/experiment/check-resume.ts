import { UsageError } from '../errors/index.js';
import type { RunManifest } from '../store/types.js';

/** What the resuming attempt would run, to compare with what the run was started with. */
export interface ResumeTarget {
  promptPath: string;
  promptHash: string;
  datasetPath: string;
  datasetHash: string;
  model: string;
  options: { repeat: number; selection: unknown; skipEval: boolean };
  /** `--shard i/n`, when given. */
  shard?: { index: number; count: number };
}

/**
 * A resumed run must run what it was started with: otherwise its results file would mix rows
 * of two prompts, datasets, models or row selections under one summary.
 */
export function checkResume(manifest: RunManifest, target: ResumeTarget): void {
  const differences: string[] = [];
  if (manifest.prompt.path !== target.promptPath) differences.push(`it ran ${manifest.prompt.path}, not ${target.promptPath}`);
  else if (manifest.prompt.hash !== target.promptHash) differences.push(`${target.promptPath} changed since`);
  if (manifest.dataset && manifest.dataset.path !== target.datasetPath) {
    differences.push(`it ran the dataset ${manifest.dataset.path}, not ${target.datasetPath}`);
  } else if (manifest.dataset && manifest.dataset.hash !== target.datasetHash) {
    differences.push(`the dataset ${target.datasetPath} changed since`);
  }
  if (manifest.model !== target.model) differences.push(`it ran ${manifest.model}, not ${target.model}`);
  const started = manifest.options as Partial<ResumeTarget['options']>;
  if ((started.repeat ?? 1) !== target.options.repeat) differences.push(`it ran --repeat ${started.repeat ?? 1}, not ${target.options.repeat}`);
  if (JSON.stringify(started.selection ?? { kind: 'all' }) !== JSON.stringify(target.options.selection)) {
    differences.push('it selected other rows (--rows, --sample, --sample-rows, --limit or --split differ)');
  }
  if ((started.skipEval ?? false) !== target.options.skipEval) differences.push('--skip-eval differs');
  const shardOf = (shard: { index: number; count: number } | undefined): string => (shard ? `--shard ${shard.index}/${shard.count}` : 'no --shard');
  if (shardOf(manifest.shard) !== shardOf(target.shard)) differences.push(`it ran ${shardOf(manifest.shard)}, not ${shardOf(target.shard)}`);
  if (differences.length === 0) return;
  throw new UsageError('USAGE_RESUME_MISMATCH', `cannot resume run ${manifest.id}: ${differences.join('; ')}`, {
    hint: 'resume with the same prompt, dataset and options, or start a new run without --resume',
  });
}
