import { writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { ConfigError, UsageError } from '../../errors/index.js';
import { findConfigFile, loadClient, migratedConfig, migrationNotes } from '../../project/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  force: { type: 'boolean', description: 'Overwrite an existing agentmark.config.ts' },
} satisfies OptionTable;

/**
 * Writes an agentmark.config.ts that registers the AgentMark client's eval functions as scorers
 * (by importing the client), and lists what this tool reads differently. Touches no other file.
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'migrate');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark migrate [options]',
        summary:
          'For a project coming from AgentMark: writes agentmark.config.ts, registering the eval functions of\n' +
          'agentmark.client.ts as scorers (the config imports the client), and lists what this tool reads\n' +
          'differently. Changes no other file; refuses to overwrite a config without --force.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', 'migrate takes no file arguments', { hint: 'use --project <dir> for another project' });
  const project = await openProject(parsed.options.project, io.cwd);
  const target = join(project.root, 'agentmark.config.ts');
  const existing = await findConfigFile(project.root);
  if (existing !== undefined && !parsed.options.force) {
    throw new ConfigError('CONFIG_EXISTS', `${basename(existing)} already exists; migrate writes a new one`, {
      location: { file: existing },
      hint: 'pass --force to overwrite it (its scorers, tools and settings are lost)',
    });
  }
  const client = await loadClient(project.root);
  if (client === undefined) {
    throw new ConfigError('CONFIG_NO_CLIENT', 'no agentmark.client.ts (or .mts, .js, .mjs) in the project: nothing to migrate', {
      location: { file: project.root },
      hint: 'the project runs as it is; `agentmark validate` checks it',
    });
  }
  if (client.error !== undefined) {
    // A config that imports a client that cannot load would fail every run: better none.
    throw new ConfigError('CONFIG_CLIENT_NOT_LOADED', `${basename(client.path)} could not be loaded: ${client.error}`, {
      location: { file: client.path },
      hint: 'install what it imports (npm install), then run migrate again',
    });
  }
  const names = Object.keys(client.scorers);
  await writeFile(target, migratedConfig(client.path, client.exportName ?? 'client', names));
  const where = relative(io.cwd, target) || target;
  io.stdout.write(`wrote ${where}: ${names.length} scorer${names.length === 1 ? '' : 's'} from ${basename(client.path)}${names.length > 0 ? ` (${[...names].sort().join(', ')})` : ''}\n`);
  io.stdout.write('\nRead differently from AgentMark:\n');
  for (const note of migrationNotes(project.file)) io.stdout.write(`  - ${note}\n`);
  io.stdout.write('\nCheck the project with `agentmark validate`.\n');
  return ExitCode.ok;
}
