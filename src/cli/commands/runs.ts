import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';

const usage =
  'Usage: agentmark runs [--prompt <path>] [--limit <n>] [--format table|json]\n' +
  '       agentmark runs show <run> [--format table|json|jsonl|csv|junit|markdown|html]\n' +
  '       agentmark runs prune (--keep <n> | --older-than <days>d) [--prompt <path>] [--dry-run]\n' +
  '       agentmark runs export <run> --otel [--otel-content] [--otel-trace-per run|row] [--otel-timeout <seconds>]\n' +
  '       agentmark runs push [runs...]\n' +
  '       agentmark runs pull <run>\n' +
  '       agentmark runs delete <run> --store\n\n' +
  'Lists past runs (newest first), prints a run\'s report again from disk, or deletes old run\n' +
  'folders (never the response cache). A run is named by its id or a unique prefix, `latest`,\n' +
  '`latest~N`, `@<git-ref>` or a path to a run folder; with a team store also `branch:<name>`\n' +
  'or `commit:<sha>` (there `@<branch>` is the newest completed run made on that branch).\n\n' +
  'Run `agentmark runs <list|show|prune|export|push|pull|delete> --help` for the options of each.\n';

/** `agentmark runs [list|show|prune]`: the subcommands live in their own files. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'show') return (await import('./runs-show.js')).run(rest, io);
  if (first === 'prune') return (await import('./runs-prune.js')).run(rest, io);
  if (first === 'export') return (await import('./runs-export.js')).run(rest, io);
  if (first === 'push') return (await import('./runs-push.js')).run(rest, io);
  if (first === 'pull') return (await import('./runs-pull.js')).run(rest, io);
  if (first === 'delete') return (await import('./runs-delete.js')).run(rest, io);
  if (first === 'list') return (await import('./runs-list.js')).run(rest, io);
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(usage);
    return ExitCode.ok;
  }
  if (first !== undefined && !first.startsWith('-')) {
    throw new UsageError('USAGE_UNKNOWN_COMMAND', `unknown runs subcommand "${first}"`, { hint: 'use `runs`, `runs show <run>`, `runs prune`, `runs export <run> --otel`, `runs push`, `runs pull <run>` or `runs delete <run> --store`' });
  }
  return (await import('./runs-list.js')).run(argv, io);
}
