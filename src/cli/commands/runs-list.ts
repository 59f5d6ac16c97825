import { UsageError } from '../../errors/index.js';
import { listRuns } from '../../history/index.js';
import { formatRunList, runListEntry } from '../../report/index.js';
import { RunStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';
import { openProjectStorage, projectStoreSetting } from '../open-store.js';
import type { Project } from '../../project/types.js';
import type { RunManifest, RunQuery } from '../../store/index.js';

/** The team store's runs: with a store set, `runs` lists what the team has, not this clone. */
async function teamRuns(project: Project, env: NodeJS.ProcessEnv, query: RunQuery): Promise<RunManifest[]> {
  const storage = await openProjectStorage(project, env);
  try {
    return await storage.listRuns(query);
  } finally {
    await storage.close();
  }
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
        summary: 'Lists past runs, newest first: id, start, prompt, model, dataset, rows, pass rate per eval,\nstatus, git commit (* when the tree had uncommitted changes), duration and cost.',
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
  const manifests = projectStoreSetting(project, io.env).url === undefined
    ? await listRuns(new RunStore(project.root), { ...(prompt === undefined ? {} : { prompt }), ...(flags.limit === undefined ? {} : { limit: flags.limit }) })
    : await teamRuns(project, io.env, { ...(prompt === undefined ? {} : { promptPath: prompt }), ...(flags.limit === undefined ? {} : { limit: flags.limit }) });
  const entries = manifests.map(runListEntry);
  io.stdout.write(format === 'json' ? `${JSON.stringify(entries, null, 2)}\n` : formatRunList(entries, io.stdout.columns !== undefined && io.stdout.columns > 0 ? io.stdout.columns : undefined));
  return ExitCode.ok;
}
