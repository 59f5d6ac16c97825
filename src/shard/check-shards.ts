import { UsageError } from '../errors/index.js';
import { canonicalJson } from '../canonical-json.js';
import type { RunManifest, ShardRecord, StoredRun } from '../store/index.js';

/** A run that `--shard` made, with its record. */
export interface ShardRun {
  run: StoredRun;
  shard: ShardRecord;
}

export interface CheckedShards {
  /** In shard order. */
  shards: ShardRun[];
  count: number;
  /** Shard indexes not given (only with `allowPartial`). */
  missing: number[];
}

const name = (entry: ShardRun): string => `${entry.run.manifest.id} (shard ${entry.shard.index}/${entry.shard.count})`;

/**
 * What must be equal for rows of several runs to be one run's: the prompt text, the dataset
 * file, the model, its settings, and the options that change what a row is or how the run is
 * gated. Concurrency, timeouts and the cache mode may differ between machines.
 */
const FIELDS: Array<{ what: string; of: (m: RunManifest, s: ShardRecord) => unknown; show: (m: RunManifest, s: ShardRecord) => string }> = [
  { what: 'prompt', of: (m) => [m.prompt.path, m.prompt.hash], show: (m) => `${m.prompt.path} (text ${m.prompt.hash.slice(0, 12)})` },
  { what: 'dataset', of: (m) => [m.dataset?.path, m.dataset?.hash], show: (m) => (m.dataset ? `${m.dataset.path} (${m.dataset.hash.slice(0, 12)})` : 'no dataset') },
  { what: 'model', of: (m) => m.model, show: (m) => m.model },
  { what: 'model settings', of: (m) => m.settings, show: (m) => canonicalJson(m.settings) },
  { what: 'number of shards', of: (_, s) => s.count, show: (_, s) => `${s.count}` },
  { what: 'row selection', of: (m) => m.options.selection ?? { kind: 'all' }, show: (m) => canonicalJson(m.options.selection ?? { kind: 'all' }) },
  { what: '--repeat', of: (m) => m.options.repeat ?? 1, show: (m) => `${String(m.options.repeat ?? 1)}` },
  { what: 'evals', of: (_, s) => s.evals, show: (_, s) => (s.evals.length === 0 ? 'none' : s.evals.join(', ')) },
  { what: '--threshold', of: (m) => m.options.threshold ?? null, show: (m) => (m.options.threshold === undefined ? 'none' : `${String(m.options.threshold)}`) },
  { what: 'score_thresholds', of: (_, s) => s.scoreThresholds ?? {}, show: (_, s) => canonicalJson(s.scoreThresholds ?? {}) },
  { what: 'judge_min_agreement', of: (_, s) => s.judgeMinAgreement ?? {}, show: (_, s) => canonicalJson(s.judgeMinAgreement ?? {}) },
  { what: 'judge model', of: (m) => m.options.judgeModel ?? null, show: (m) => `${String(m.options.judgeModel ?? 'the default')}` },
];

/**
 * Checks that runs are shards of one run and says exactly what is wrong when not: a run made
 * without `--shard` or not finished, shards of different prompts, datasets, models or settings,
 * the same shard twice, or a missing shard (unless `allowPartial`). Every problem is a
 * UsageError naming the runs.
 */
export function checkShards(runs: StoredRun[], options: { allowPartial: boolean }): CheckedShards {
  const shards: ShardRun[] = [];
  for (const run of runs) {
    const { shard, id, status } = run.manifest;
    if (!shard) {
      throw new UsageError('USAGE_NOT_A_SHARD', `run ${id} is not a shard: it was not run with --shard <i>/<n>`, {
        hint: 'merge the runs that `run-experiment --shard 1/N` … `--shard N/N` made',
      });
    }
    const entry = { run, shard };
    if (status !== 'completed') {
      throw new UsageError('USAGE_SHARD_NOT_FINISHED', `run ${name(entry)} did not finish (status: ${status})`, {
        hint: `continue it with \`agentmark run-experiment <prompt> --shard ${shard.index}/${shard.count} --resume ${id}\`, then merge`,
      });
    }
    shards.push(entry);
  }
  const first = shards[0];
  if (!first) throw new UsageError('USAGE_MISSING_RUN', 'merge needs the shard runs to merge', { hint: 'e.g. `agentmark merge shards/*`' });
  for (const field of FIELDS) {
    const expected = canonicalJson(field.of(first.run.manifest, first.shard));
    const other = shards.find((entry) => canonicalJson(field.of(entry.run.manifest, entry.shard)) !== expected);
    if (other) {
      throw new UsageError(
        'USAGE_SHARD_MISMATCH',
        `these runs are not shards of one run: different ${field.what}: run ${name(first)} has ${field.show(first.run.manifest, first.shard)}, ` +
          `run ${name(other)} has ${field.show(other.run.manifest, other.shard)}`,
        { hint: 'merge only the shards of one command run on every machine of the matrix' },
      );
    }
  }
  shards.sort((a, b) => a.shard.index - b.shard.index);
  for (let i = 1; i < shards.length; i++) {
    const [before, entry] = [shards[i - 1] as ShardRun, shards[i] as ShardRun];
    if (before.shard.index === entry.shard.index) {
      const what = before.run.manifest.id === entry.run.manifest.id ? `run ${name(entry)} is given twice` : `runs ${name(before)} and ${name(entry)} are the same shard`;
      throw new UsageError('USAGE_SHARD_OVERLAP', `overlapping shards: ${what}`, { hint: 'give each shard once' });
    }
  }
  const count = first.shard.count;
  const given = new Set(shards.map((entry) => entry.shard.index));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !given.has(index));
  if (missing.length > 0 && !options.allowPartial) {
    throw new UsageError('USAGE_SHARD_MISSING', `${describeMissing(missing, count)}: got ${shards.map(name).join(', ')}`, {
      hint: 'give every shard, or --allow-partial to merge what is there (the merged run then records what is missing)',
    });
  }
  return { shards, count, missing };
}

/** `shard 3/4 is missing` / `shards 2/4 and 3/4 are missing`. */
export function describeMissing(missing: number[], count: number): string {
  const list = missing.map((index) => `${index}/${count}`);
  if (list.length === 1) return `shard ${list[0]} is missing`;
  return `shards ${list.slice(0, -1).join(', ')} and ${list.at(-1)} are missing`;
}
