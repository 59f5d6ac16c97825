import { UsageError } from '../../errors/index.js';
import { listRuns, mergeRunLists } from '../../history/index.js';
import { formatRunList, runListEntry, type RunListEntry } from '../../report/index.js';
import { RunStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';
import { openProjectStorage, projectStoreSetting } from '../open-store.js';
import type { Project } from '../../project/types.js';
import type { RunManifest } from '../../store/index.js';

/**
 * This clone's runs and the team store's, one row a run id, each marked where it is. A store that
 * cannot be reached costs one warning and the local runs are listed alone (as a run goes on
 * locally); any other store error (a wrong password, an old schema) stops the command.
 */
async function placedRuns(project: Project, io: CliIO, prompt: string | undefined, limit: number | undefined): Promise<RunListEntry[]> {
  const local = await listRuns(new RunStore(project.root), { ...(prompt === undefined ? {} : { prompt }), ...(limit === undefined ? {} : { limit }) });
  let team: RunManifest[] = [];
  try {
    const storage = await openProjectStorage(project, io.env);
    try {
      team = await storage.listRuns({ ...(prompt === undefined ? {} : { promptPath: prompt }), ...(limit === undefined ? {} : { limit }) });
    } finally {
      await storage.close();
    }
  } catch (error) {
    if ((error as { code?: string }).code !== 'STORE_UNREACHABLE') throw error;
    io.stderr.write(`warning: the team store is not available (${(error as Error).message}): listing this clone's runs only\n`);
    return local.map((manifest) => ({ ...runListEntry(manifest), where: 'local' }));
  }
  return mergeRunLists(local, team, limit).map(({ manifest, where, storeStatus }) => ({
    ...runListEntry(manifest),
    where,
    ...(storeStatus === undefined ? {} : { storeStatus }),
  }));
}

const options = {
  ...commonOptions,
  prompt: { type: 'string', value: '<path>', description: 'Only runs of this prompt' },
  limit: { type: 'integer', value: '<n>', min: 1, description: 'At most n runs' },
  format: { type: 'string', value: '<fmt>', default: 'table', description: 'table or json' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs [--prompt <path>] [--limit <n>] [--format table|json]',
        summary: 'Lists past runs, newest first: id, start, prompt, model, dataset, rows, pass rate per eval,\nstatus, git commit (* when the tree had uncommitted changes), duration and cost. With a team\nstore set: this clone\'s runs and the store\'s, one row a run, Where says local, store or both.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  if (positionals.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `runs takes no arguments, got "${positionals[0]}"`, { hint: 'use `runs show <run>` for one run' });
  const format = flags.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new UsageError('USAGE_BAD_VALUE', `--format ${format}: runs lists as table or json`);
  const project = await openProject(flags.project, io.cwd);
  const prompt = flags.prompt === undefined ? undefined : projectPath(project, io.cwd, flags.prompt);
  const entries = projectStoreSetting(project, io.env).url === undefined
    ? (await listRuns(new RunStore(project.root), { ...(prompt === undefined ? {} : { prompt }), ...(flags.limit === undefined ? {} : { limit: flags.limit }) })).map(runListEntry)
    : await placedRuns(project, io, prompt, flags.limit);
  io.stdout.write(format === 'json' ? `${JSON.stringify(entries, null, 2)}\n` : formatRunList(entries, io.stdout.columns !== undefined && io.stdout.columns > 0 ? io.stdout.columns : undefined));
  return ExitCode.ok;
}
