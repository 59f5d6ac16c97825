import { relative, sep } from 'node:path';
import type { RowSelection } from '../dataset/types.js';
import type { RunManifest } from '../store/types.js';
import type { ParsedOptions } from './options.js';
import type { runOptions } from './run-options.js';
import type { FlagRunSettings } from './run-settings.js';

type RunFlags = ParsedOptions<typeof runOptions>;

const SELECTION_FLAGS = ['rows', 'sample', 'sample-rows', 'limit', 'split', 'seed'] as const;

/**
 * `--resume <id>`: what the run was started with (its manifest) fills every option the command
 * line does not give, so `run-experiment --resume <id>` alone continues the run as it began.
 * Flags given win; a different row selection or model is then refused by checkResume.
 */
export function resumeSettings(manifest: RunManifest, flags: RunFlags, run: FlagRunSettings): FlagRunSettings {
  const started = manifest.options;
  const take = <T>(flag: keyof RunFlags, value: unknown, check: (v: unknown) => v is T): T | undefined =>
    flags[flag] === undefined && check(value) ? value : undefined;
  const isNumber = (v: unknown): v is number => typeof v === 'number';
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
  const selectionGiven = SELECTION_FLAGS.some((flag) => flags[flag] !== undefined);
  const cacheGiven = flags.cache !== undefined || flags['cache-only'] !== undefined;
  const cacheMode = started.cacheMode;
  const pick = {
    concurrency: take('concurrency', started.concurrency, isNumber),
    timeoutMs: take('timeout', started['timeoutMs'], isNumber),
    maxRetries: take('max-retries', started['maxRetries'], isNumber),
    repeat: take('repeat', started.repeat, isNumber),
    skipEval: take('skip-eval', started['skipEval'], isBoolean),
    evalTimeoutMs: take('eval-timeout', started['evalTimeoutMs'], isNumber),
    judgeModel: take('judge-model', started['judgeModel'], isString),
    threshold: take('threshold', started.threshold, isNumber),
    agent: take('agent', started['agent'], isString),
    model: flags.model === undefined ? manifest.model : undefined,
  };
  const settings: FlagRunSettings = { ...run };
  for (const [key, value] of Object.entries(pick)) {
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  if (!selectionGiven && started.selection !== undefined) settings.selection = started.selection as RowSelection;
  const caps = started['rateLimit'] as { rpm?: unknown; tpm?: unknown } | undefined;
  if (flags.rpm === undefined && flags.tpm === undefined && caps !== undefined && typeof caps === 'object') {
    settings.rateLimit = { ...(typeof caps.rpm === 'number' ? { rpm: caps.rpm } : {}), ...(typeof caps.tpm === 'number' ? { tpm: caps.tpm } : {}) };
  }
  if (!cacheGiven && (cacheMode === 'use' || cacheMode === 'off' || cacheMode === 'only')) settings.cacheMode = cacheMode;
  return settings;
}

const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/**
 * The command that continues an interrupted run: this command line without its prompt paths
 * (run-experiment takes them from the manifest; `score` keeps them) and with `--resume <id>`,
 * plus `--project` when the project would not be found from the current folder.
 */
export function resumeCommand(command: string, argv: readonly string[], drop: readonly string[], runId: string, projectRoot: string, cwd: string): string {
  const args: string[] = [];
  const toDrop = [...drop];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--resume') {
      i += 1;
      continue;
    }
    if (arg.startsWith('--resume=')) continue;
    const at = toDrop.indexOf(arg);
    if (at >= 0) {
      toDrop.splice(at, 1);
      continue;
    }
    args.push(arg);
  }
  const inside = relative(projectRoot, cwd);
  const outside = inside.startsWith('..') || inside.split(sep)[0] === '..';
  const project = outside && !argv.some((arg) => arg === '--project' || arg.startsWith('--project=')) ? ['--project', relative(cwd, projectRoot) || '.'] : [];
  return ['agentmark', command, '--resume', runId, ...project, ...args].map(quote).join(' ');
}
