import { UsageError } from '../../errors/index.js';
import { resolveStoreRef } from '../../history/index.js';
import { openStorage } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { requireStoreUrl } from '../open-store.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';

const options = {
  ...commonOptions,
  store: { type: 'boolean', description: 'Delete from the team store (required: `runs prune` deletes local run folders)' },
  prompt: { type: 'string', value: '<path>', description: 'The prompt whose runs `latest` and `@<branch>` mean' },
} satisfies OptionTable;

/**
 * `agentmark runs delete <run> --store`: removes one run from the team store with its rows, labels
 * and the blobs no other run names, in one transaction (removeRun). A run still written (`running`,
 * its writer heard from) is refused; an abandoned one goes. This clone's copy stays.
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs delete');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs delete <run> --store [--prompt <path>]',
        summary: "Deletes one run from the team store: its rows, labels and the prompt files no other run uses.\nA run still being written is refused; this clone's .agentmark/runs/ is left alone.",
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [ref, ...extra] = positionals;
  if (ref === undefined || extra.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', 'runs delete takes one run', { hint: 'e.g. `agentmark runs delete 20261202-061902.847-a78b0f --store`' });
  if (flags.store !== true) throw new UsageError('USAGE_BAD_ARGUMENT', 'runs delete deletes from the team store only: add --store', { hint: 'local run folders go with `agentmark runs prune`' });
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const storage = await openStorage({ projectRoot: project.root, url: requireStoreUrl(project, io.env, 'runs delete') });
  try {
    const manifest = await resolveStoreRef(storage, ref, flags.prompt === undefined ? undefined : projectPath(project, io.cwd, flags.prompt));
    if (manifest.status === 'running') {
      throw new UsageError('USAGE_RUN_NOT_FINISHED', `run ${manifest.id} is being written (its writer was heard from in the last 2 minutes): it is not deleted`, {
        hint: 'delete it once it finished, or once it shows abandoned (`agentmark runs`)',
      });
    }
    const rows = await storage.rowCount(manifest.id);
    const labels = (await storage.readAnnotations(manifest.id)).length;
    await storage.removeRun(manifest.id);
    io.stdout.write(`deleted ${manifest.id} (${manifest.status}) from ${storage.location}: ${rows} row${rows === 1 ? '' : 's'}, ${labels} label${labels === 1 ? '' : 's'}\n`);
    return ExitCode.ok;
  } finally {
    await storage.close();
  }
}
