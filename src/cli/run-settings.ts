import { parseRowFilter, parseRowSelection } from '../dataset/index.js';
import { UsageError } from '../errors/index.js';
import type { RunExperimentOptions } from '../experiment/options.js';
import type { ReporterName } from '../report/index.js';
import { parseShardSpec } from '../shard/index.js';
import { parseShardGroup } from '../shard/shard-group.js';
import { reportFormat } from './report-format.js';
import type { ParsedOptions } from './options.js';
import type { runOptions } from './run-options.js';

/** The run options that come from flags alone (no project or prompt yet). */
export type FlagRunSettings = Omit<RunExperimentOptions, 'project' | 'config' | 'promptPath'>;

/** `--model a,b --model c` → `['a', 'b', 'c']`. */
export function modelsFromFlags(models: readonly string[] | undefined): string[] {
  return [...new Set((models ?? []).flatMap((value) => value.split(',')).map((m) => m.trim()).filter((m) => m !== ''))];
}

export interface ReportSettings {
  format: ReporterName;
  output?: string;
  truncate: number;
  quiet: boolean;
  /** `--all-rows`: the table lists every row of a large run. */
  allRows?: boolean;
}

/** Checks and converts run-experiment's flags; conflicting or malformed flags are usage errors. */
export function runSettingsFromFlags(options: ParsedOptions<typeof runOptions>): { run: FlagRunSettings; report: ReportSettings } {
  if (options['cache-only'] && options.cache === false) {
    throw new UsageError('USAGE_CONFLICT', '--cache-only and --no-cache cannot be used together');
  }
  const batchFlags = (['judge-live', 'batch-max-requests', 'batch-max-bytes', 'batch-poll'] as const).filter((name) => options[name] !== undefined);
  if (!options.batch && batchFlags.length > 0) {
    throw new UsageError('USAGE_CONFLICT', `--${batchFlags[0]} applies to --batch`, { hint: 'add --batch' });
  }
  if (options['shard-group'] !== undefined && options.shard === undefined) {
    throw new UsageError('USAGE_CONFLICT', '--shard-group applies to --shard', { hint: 'add --shard <i>/<n>' });
  }
  const format = reportFormat(options.format, options.output);
  const selection = parseRowSelection({
    ...(options.rows === undefined ? {} : { rows: options.rows }),
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    ...(options['sample-rows'] === undefined ? {} : { sampleRows: options['sample-rows'] }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.split === undefined ? {} : { split: options.split }),
    ...(options.seed === undefined ? {} : { seed: String(options.seed) }),
  });

  const filter = parseRowFilter(options.tag, options.name);
  if (options['warmup-repeats'] !== undefined && options['warmup-repeats'] >= (options.repeat ?? 1)) {
    throw new UsageError('USAGE_CONFLICT', `--warmup-repeats ${options['warmup-repeats']} leaves no measured repeat of --repeat ${options.repeat ?? 1}`, {
      hint: 'give --repeat more than --warmup-repeats, e.g. --repeat 5 --warmup-repeats 1',
    });
  }
  const run: FlagRunSettings = {
    ...(filter ? { filter } : {}),
    ...(options.warmup ? { warmup: options.warmup } : {}),
    ...(options['warmup-repeats'] ? { warmupRepeats: options['warmup-repeats'] } : {}),
    concurrency: options.concurrency ?? 20,
    ...(options.rpm === undefined && options.tpm === undefined
      ? {}
      : { rateLimit: { ...(options.rpm === undefined ? {} : { rpm: options.rpm }), ...(options.tpm === undefined ? {} : { tpm: options.tpm }) } }),
    // Unset without --timeout, so test_settings.timeout_seconds can set the prompt's default.
    ...(options.timeout === undefined ? {} : { timeoutMs: Math.round(options.timeout * 1000) }),
    repeat: options.repeat ?? 1,
    selection,
    skipEval: options['skip-eval'] ?? false,
    cacheMode: options['cache-only'] ? 'only' : options.cache === false ? 'off' : 'use',
    evalTimeoutMs: Math.round((options['eval-timeout'] ?? 30) * 1000),
    // Several models are run one by one by the command, each with its own `model`.
    ...(modelsFromFlags(options.model).length === 1 ? { model: modelsFromFlags(options.model)[0] as string } : {}),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options['max-retries'] === undefined ? {} : { maxRetries: options['max-retries'] }),
    ...(options.resume === undefined ? {} : { resume: options.resume }),
    ...(options.shard === undefined ? {} : { shard: parseShardSpec(options.shard) }),
    ...(options['shard-group'] === undefined ? {} : { shardGroup: parseShardGroup(options['shard-group']) }),
    ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
    ...(options['judge-model'] === undefined ? {} : { judgeModel: options['judge-model'] }),
    ...(options.batch
      ? {
          batch: {
            judgeLive: options['judge-live'] ?? false,
            ...(options['batch-max-requests'] === undefined ? {} : { maxRequests: options['batch-max-requests'] }),
            ...(options['batch-max-bytes'] === undefined ? {} : { maxBytes: options['batch-max-bytes'] }),
            ...(options['batch-poll'] === undefined ? {} : { pollMs: Math.round(options['batch-poll'] * 1000) }),
          },
        }
      : {}),
  };
  const report: ReportSettings = {
    format,
    truncate: options.truncate ?? 1000,
    ...(options['all-rows'] ? { allRows: true } : {}),
    quiet: options.quiet ?? false,
    ...(options.output === undefined ? {} : { output: options.output }),
  };
  return { run, report };
}
