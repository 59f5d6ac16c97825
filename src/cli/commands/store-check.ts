import { isAgentmarkError } from '../../errors/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { openProjectStorage } from '../open-store.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = { ...commonOptions } satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags } = parseOptions(argv, options, 'store check');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark store check',
        summary: 'Verifies every completed run of the store against its integrity record (row count and\nsha256 of its rows): lists each damaged run with what is wrong, and exits 1 if there is one.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const storage = await openProjectStorage(project, io.env);
  try {
    let checked = 0;
    let damaged = 0;
    for (const manifest of await storage.listRuns({ status: 'completed' })) {
      checked += 1;
      try {
        await storage.checkRun(manifest.id);
      } catch (error) {
        if (!isAgentmarkError(error)) throw error;
        damaged += 1;
        io.stdout.write(`damaged ${manifest.id}: ${error.message} [${error.code}]\n`);
      }
    }
    io.stdout.write(`${storage.location}: ${checked} completed run${checked === 1 ? '' : 's'} checked, ${damaged === 0 ? 'all intact' : `${damaged} damaged`}\n`);
    return damaged === 0 ? ExitCode.ok : ExitCode.gateFailed;
  } finally {
    await storage.close();
  }
}
