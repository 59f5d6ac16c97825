import { UsageError } from '../../errors/index.js';
import { pruneRuns } from '../../history/index.js';
import { RunStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';

const options = {
  ...commonOptions,
  keep: { type: 'integer', value: '<n>', min: 0, description: 'Keep the newest n runs, delete the rest' },
  'older-than': { type: 'string', value: '<days>d', description: 'Delete runs started more than this many days ago, e.g. 30d' },
  prompt: { type: 'string', value: '<path>', description: 'Only runs of this prompt' },
  'dry-run': { type: 'boolean', description: 'List what would be deleted; delete nothing' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags } = parseOptions(argv, options, 'runs prune');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs prune (--keep <n> | --older-than <days>d) [--prompt <path>] [--dry-run]',
        summary: 'Deletes run folders under .agentmark/runs/ (never the response cache). A run still being\nwritten (its lock has a live holder) is always kept, whatever its age.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  if (flags.keep === undefined && flags['older-than'] === undefined) {
    throw new UsageError('USAGE_MISSING_OPTION', 'runs prune needs --keep <n> or --older-than <days>d', { hint: 'e.g. `agentmark runs prune --keep 20 --dry-run`' });
  }
  const older = flags['older-than'];
  const match = older === undefined ? undefined : /^(\d+(?:\.\d+)?)d$/.exec(older.trim());
  if (older !== undefined && !match) throw new UsageError('USAGE_BAD_VALUE', `--older-than takes days like 30d, got "${older}"`);
  const project = await openProject(flags.project, io.cwd);
  const removed = await pruneRuns(new RunStore(project.root), {
    ...(flags.keep === undefined ? {} : { keep: flags.keep }),
    ...(match ? { olderThanDays: Number(match[1]) } : {}),
    ...(flags.prompt === undefined ? {} : { prompt: projectPath(project, io.cwd, flags.prompt) }),
    dryRun: flags['dry-run'] ?? false,
  });
  const verb = flags['dry-run'] ? 'would delete' : 'deleted';
  for (const run of removed) io.stdout.write(`${verb} ${run.id} (${run.prompt?.path ?? '?'}, ${run.startedAt})\n`);
  io.stdout.write(`${removed.length} run${removed.length === 1 ? '' : 's'} ${verb === 'deleted' ? 'deleted' : 'would be deleted'}\n`);
  return ExitCode.ok;
}
