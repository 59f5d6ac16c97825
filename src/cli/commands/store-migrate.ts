import { migrateStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { requireStoreUrl } from '../open-store.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = { ...commonOptions } satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags } = parseOptions(argv, options, 'store migrate');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark store migrate',
        summary: 'Applies the schema migrations the team store lacks, in one transaction (all or none).\nA database newer than this agentmark is refused, naming both schema versions.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const result = await migrateStore(requireStoreUrl(project, io.env, 'store migrate'));
  io.stdout.write(
    result.applied.length === 0
      ? `${result.location}: schema version ${result.version}, up to date\n`
      : `${result.location}: applied schema migration${result.applied.length === 1 ? '' : 's'} ${result.applied.join(', ')}; schema version ${result.version}\n`,
  );
  return ExitCode.ok;
}
