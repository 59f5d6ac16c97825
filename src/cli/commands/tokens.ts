import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openProject } from '../context.js';

const createOptions = {
  ...commonOptions,
  name: { type: 'string', value: '<name>', description: 'Who the token is for: a person or a job (labels carry it)' },
  role: { type: 'string', value: 'viewer|reviewer|writer|admin', description: 'viewer reads; reviewer also labels; writer pushes runs; admin manages tokens' },
} satisfies OptionTable;
const listOptions = { ...commonOptions, format: { type: 'string', value: 'table|json', default: 'table', description: 'Output format' } } satisfies OptionTable;

const usage =
  'Usage: agentmark tokens create --name <name> --role viewer|reviewer|writer|admin\n' +
  '       agentmark tokens list [--format table|json]\n' +
  '       agentmark tokens revoke <name>\n\n' +
  'The accounts of `agentmark serve`. A token is printed once, alone on the last line, and stored\n' +
  'only as a scrypt hash: in the store\'s database when agentmark.json has a store, else in\n' +
  '.agentmark/tokens.json. A revoked token stops working at once, its browser sessions too.\n';

const SUB_HELP = {
  create: { usage: 'agentmark tokens create --name <name> --role viewer|reviewer|writer|admin', summary: 'Makes a token for `agentmark serve` and prints it once, alone on the last line; only its\nscrypt hash is stored.' },
  list: { usage: 'agentmark tokens list [--format table|json]', summary: 'Lists the tokens (names, roles, when made, revoked or active); never a token itself.' },
  revoke: { usage: 'agentmark tokens revoke <name>', summary: 'Revokes the active token of that name: it stops working at once, its sessions too.' },
};

/** `agentmark tokens create|list|revoke`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(usage);
    return sub === undefined ? ExitCode.inputError : ExitCode.ok;
  }
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') {
    throw new UsageError('USAGE_UNKNOWN_COMMAND', `unknown tokens subcommand "${sub}"`, { hint: 'use `tokens create`, `tokens list` or `tokens revoke <name>`' });
  }
  const table = sub === 'create' ? createOptions : sub === 'list' ? listOptions : commonOptions;
  const { options: flags, positionals } = parseOptions(rest, table, `tokens ${sub}`);
  if (flags.help) {
    io.stdout.write(renderHelp({ ...SUB_HELP[sub], options: table }));
    return ExitCode.ok;
  }
  const { openTokenStore } = await import('../../serve/open-token-store.js');
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const store = await openTokenStore(project, io.env);
  try {
    if (sub === 'create') return await create(store, flags as { name?: string; role?: string }, positionals, io);
    if (sub === 'list') return await list(store, (flags as { format?: string }).format ?? 'table', positionals, io);
    return await revoke(store, positionals, io);
  } finally {
    await store.close();
  }
}

type Store = Awaited<ReturnType<typeof import('../../serve/open-token-store.js').openTokenStore>>;

async function create(store: Store, flags: { name?: string; role?: string }, positionals: string[], io: CliIO): Promise<number> {
  if (positionals.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `tokens create takes no arguments, got "${positionals[0]}"`, { hint: 'give the name with --name' });
  if (flags.name === undefined || flags.role === undefined) throw new UsageError('USAGE_MISSING_FLAG', 'tokens create needs --name and --role', { hint: 'e.g. agentmark tokens create --name ci-main --role writer' });
  const { checkRole, createToken } = await import('../../serve/create-token.js');
  const { token, record } = await createToken(store, flags.name, checkRole(flags.role), new Date());
  io.stdout.write(`created token "${record.name}" (${record.role}); it is shown only now, keep it secret:\n${token}\n`);
  return ExitCode.ok;
}

async function list(store: Store, format: string, positionals: string[], io: CliIO): Promise<number> {
  if (positionals.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `tokens list takes no arguments, got "${positionals[0]}"`, { hint: 'run `agentmark tokens list`' });
  if (format !== 'table' && format !== 'json') throw new UsageError('USAGE_BAD_FORMAT', `--format ${format} is not table or json`, { hint: 'use --format table or --format json' });
  const tokens = (await store.list()).map(({ id, name, role, createdAt, revokedAt }) => ({ id, name, role, createdAt, ...(revokedAt === undefined ? {} : { revokedAt }) }));
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify({ tokens }, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (tokens.length === 0) {
    io.stdout.write('no tokens yet: make one with `agentmark tokens create --name <name> --role <role>`\n');
    return ExitCode.ok;
  }
  const rows = [['NAME', 'ROLE', 'CREATED', 'STATUS'], ...tokens.map((t) => [t.name, t.role, t.createdAt.slice(0, 16).replace('T', ' '), t.revokedAt ? `revoked ${t.revokedAt.slice(0, 10)}` : 'active'])];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => (r[c] as string).length)));
  for (const row of rows) io.stdout.write(`${row.map((cell, c) => (c < 3 ? cell.padEnd(widths[c] as number) : cell)).join('  ')}\n`);
  return ExitCode.ok;
}

async function revoke(store: Store, positionals: string[], io: CliIO): Promise<number> {
  const [name, extra] = positionals;
  if (name === undefined || extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', 'tokens revoke takes one token name', { hint: 'see the names with `agentmark tokens list`' });
  if (!(await store.revoke(name, new Date().toISOString()))) throw new UsageError('USAGE_NO_SUCH_TOKEN', `no active token named "${name}"`, { hint: 'see the names with `agentmark tokens list`' });
  io.stdout.write(`revoked token "${name}": it no longer signs in, and its sessions have ended\n`);
  return ExitCode.ok;
}
