import { UsageError } from '../../errors/index.js';
import { resolveStoreRef } from '../../history/index.js';
import { LocalStorage, openStorage, pullRun } from '../../store/index.js';
import { copyMissingLabels } from '../../review/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { requireStoreUrl } from '../open-store.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { projectPath } from '../project-path.js';

const options = {
  ...commonOptions,
  prompt: { type: 'string', value: '<path>', description: 'The prompt whose runs `latest` and `@<branch>` mean' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs pull');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs pull <run> [--prompt <path>]',
        summary: 'Brings one run of the team store into .agentmark/runs/ (its rows, manifest, prompt files and\nlabels), checked against its integrity record; a copy already here is checked too, and one\nwhose results no longer match the record is repaired from the store (its labels kept). A run is\nnamed by its id or a prefix, latest, @<branch> or branch:<name>, commit:<sha>.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [ref, ...extra] = positionals;
  if (ref === undefined || extra.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', 'runs pull takes one run', { hint: 'e.g. `agentmark runs pull @main --prompt prompts/math.prompt.mdx`' });
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const url = requireStoreUrl(project, io.env, 'runs pull');
  const source = await openStorage({ projectRoot: project.root, url });
  const local = new LocalStorage(project.root);
  try {
    const manifest = await resolveStoreRef(source, ref, flags.prompt === undefined ? undefined : projectPath(project, io.cwd, flags.prompt));
    const result = await pullRun(source, local, manifest.id);
    // Labels written in the store since an earlier pull (serve, other clones) come too.
    const labels = await copyMissingLabels(source, local, manifest.id);
    const got = labels === 0 ? '' : `; ${labels} label${labels === 1 ? '' : 's'} brought`;
    const rows = `${result.rows} row${result.rows === 1 ? '' : 's'}`;
    if (result.repaired === true) io.stdout.write(`repaired ${manifest.id} in ${local.location}: its results did not match its integrity record; ${rows} brought again${got}\n`);
    else io.stdout.write(result.already ? `${manifest.id}: already in ${local.location} (${rows})${got}\n` : `pulled ${manifest.id}: ${rows} into ${local.location}${got}\n`);
    return ExitCode.ok;
  } finally {
    await local.close();
    await source.close();
  }
}
