import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';

const usage =
  'Usage: agentmark store migrate\n' +
  '       agentmark store check\n\n' +
  'The team store (a PostgreSQL database named by AGENTMARK_STORE_URL or "store" in agentmark.json).\n' +
  '`migrate` brings its schema up to date in one transaction; `check` verifies every completed\n' +
  'run against its integrity record (row count and sha256) and lists the damaged ones (exit 1).\n' +
  'Without a team store, `check` checks the runs under .agentmark/runs/.\n';

/** `agentmark store <migrate|check>`: each subcommand in its own file. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'migrate') return (await import('./store-migrate.js')).run(rest, io);
  if (first === 'check') return (await import('./store-check.js')).run(rest, io);
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(usage);
    return first === undefined ? ExitCode.inputError : ExitCode.ok;
  }
  throw new UsageError('USAGE_UNKNOWN_COMMAND', `unknown store subcommand "${first}"`, { hint: 'use `store migrate` or `store check`' });
}
