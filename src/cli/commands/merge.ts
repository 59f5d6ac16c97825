import { relative } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { LOCAL_RUN_REF_FORMS } from '../../history/index.js';
import { fitProse } from '../../report/fit-prose.js';
import { formatSummary } from '../../report/format-summary.js';
import { describeMissing, mergeShards, type MergedRun } from '../../shard/index.js';
import { mergeFromStore } from '../../shard/merge-from-store.js';
import { parseShardGroup } from '../../shard/shard-group.js';
import { teamStoreRef } from '../open-store.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  output: { type: 'string', short: 'o', value: '<dir>', description: 'Write the merged run to this folder (new or empty) instead of .agentmark/runs/<id>/' },
  'allow-partial': { type: 'boolean', description: 'Merge even when shards are missing; the output and the manifest say which' },
  store: { type: 'string', value: '<group>', description: 'Merge the shards of this shard group from the team store, and store the merged run there (once per group)' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark merge <runs...> [-o <dir>] [--allow-partial]\n       agentmark merge --store <group> [--allow-partial]',
  summary:
    'Builds one run from the shards of a sharded run (`run-experiment --shard i/n` on each machine):\n' +
    'the rows in dataset order, and the statistics, intervals, flaky rows and gates computed again\n' +
    'as if the run had been one process. The merged run works wherever a run does (runs, runs show,\n' +
    `compare, view). A run is ${LOCAL_RUN_REF_FORMS} (runs of this clone).`,
  options,
  details:
    'Refuses (exit 2) runs that are not shards of one run: different prompts, datasets, models or\n' +
    'settings, the same shard twice, or a missing shard without --allow-partial.\n' +
    'With --store, the shards are the runs of one shard group in the team store (AGENTMARK_STORE_URL):\n' +
    'the merged run is stored there (and in .agentmark/runs/); merging a group again gives back its run.\n' +
    "Exit codes: 0 the merged run's gates passed, 1 a gate failed, 2 usage or input error.",
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'merge');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const project = await openProject(flags.project, io.cwd);
  if (flags.store !== undefined) {
    if (positionals.length > 0 || flags.output !== undefined) {
      throw new UsageError('USAGE_CONFLICT', `--store merges the runs of a shard group in the store: give no runs${flags.output === undefined ? '' : ' and no -o'} with it`, { hint: 'agentmark merge --store <group>' });
    }
    const store = teamStoreRef(project, io.env);
    const merged = await mergeFromStore(parseShardGroup(flags.store, '--store'), {
      projectRoot: project.root,
      ...store,
      allowPartial: flags['allow-partial'] ?? false,
    });
    // Without a team store the group's shards are this project's own runs (.agentmark/runs/).
    const where = store.storeUrl === undefined ? 'in .agentmark/runs/ (no team store is set)' : 'in the team store';
    return report(merged, io, merged.already ? `shard group ${merged.group} was merged before: run ${merged.manifest.id}` : `stored ${where} as shard group ${merged.group}'s merged run`);
  }
  if (positionals.length === 0) {
    throw new UsageError('USAGE_MISSING_RUN', 'merge needs the shard runs to merge', { hint: 'e.g. `agentmark merge shards/*` (run folders) or run ids, or --store <group>' });
  }
  const merged = await mergeShards(positionals, {
    projectRoot: project.root,
    cwd: io.cwd,
    ...(flags.output === undefined ? {} : { output: flags.output }),
    allowPartial: flags['allow-partial'] ?? false,
  });
  return report(merged, io);
}

/**
 * The merged run's lines (its shards, what is missing, its summary) and its exit code, fitted to
 * stdout's width as run-experiment's summary is (the terminal's, else COLUMNS, else 100 piped).
 */
function report(merged: MergedRun, io: CliIO, note?: string): number {
  const width = io.stdout.columns !== undefined && io.stdout.columns > 0 ? io.stdout.columns : undefined;
  const { manifest } = merged;
  const record = manifest.merged;
  const summary = manifest.summary;
  if (!record || !summary) throw new Error(`merge wrote run ${manifest.id} without its summary`);
  const runDir = relative(io.cwd, merged.dir) || '.';
  const lines = [`Merged ${record.shards.length} of ${record.count} shards of ${manifest.prompt.path} · ${manifest.model} into run ${manifest.id}`];
  if (note !== undefined) lines.push(`  ${note}`);
  for (const shard of record.shards) lines.push(`  shard ${shard.index}/${record.count}  ${shard.id}  ${shard.rows.toLocaleString('en-US')} row${shard.rows === 1 ? '' : 's'}`);
  if (record.missing.length > 0) {
    const warning = `incomplete: ${describeMissing(record.missing, record.count)}; this run and its summary cover the other shards' rows only`;
    lines.push(`  ${warning}`);
    // Fitted on a terminal (stderr has no width when piped).
    io.stderr.write(`${fitProse(`warning: ${warning}`, io.stderr.columns)}\n`);
  }
  const info = { runId: manifest.id, runDir, promptPath: manifest.prompt.path, promptName: manifest.prompt.name, model: manifest.model, evalNames: summary.evals.map((e) => e.name) };
  lines.push('', ...formatSummary(summary, info, width === undefined ? {} : { width }));
  io.stdout.write(`${fitProse(lines.join('\n'), width)}\n`);
  return summary.passed ? ExitCode.ok : ExitCode.gateFailed;
}
