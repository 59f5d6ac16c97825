import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openProject } from '../context.js';
import { viewOptions } from '../view-server.js';

const options = {
  ...commonOptions,
  port: viewOptions.port,
  host: { ...viewOptions.host, description: 'Address to bind; beyond loopback only when you give one (then use TLS, or a TLS proxy)' },
  'tls-cert': { type: 'string', value: '<file>', description: 'PEM certificate: serve HTTPS (with --tls-key); session cookies are then Secure' },
  'tls-key': { type: 'string', value: '<file>', description: 'PEM private key of --tls-cert' },
  'allow-host': { type: 'string', value: '<name>', multiple: true, description: 'A name browsers reach the server by (a reverse proxy\'s), accepted in the Host header' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark serve [--port 4848] [--host 127.0.0.1] [--tls-cert <file> --tls-key <file>] [--allow-host <name>]',
  summary:
    'Serves the viewer for a team: every request is made by an account, a token from\n' +
    '`agentmark tokens create`, sent as "Authorization: Bearer <token>" or signed in with at\n' +
    '/sign-in (a session cookie). viewer reads; reviewer also labels, as the token\'s name.\n' +
    'No token: 401; a role without the right: 403. Failed sign-ins are limited per address.\n' +
    'Stop it with Ctrl-C.',
  options,
};

async function readPem(cwd: string, file: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, file));
  } catch (error) {
    throw new UsageError('USAGE_NO_SUCH_FILE', `--${flag} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { hint: 'give the PEM file of the certificate and of its key' });
  }
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'serve');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (positionals.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `serve takes no arguments, got "${positionals[0]}"`, { hint: 'use --project <dir> for another project' });
  if ((flags['tls-cert'] === undefined) !== (flags['tls-key'] === undefined)) {
    throw new UsageError('USAGE_MISSING_FLAG', '--tls-cert and --tls-key go together', { hint: 'give both PEM files for HTTPS, or neither (then serve behind a TLS reverse proxy)' });
  }
  const tls = flags['tls-cert'] === undefined || flags['tls-key'] === undefined ? undefined : { cert: await readPem(io.cwd, flags['tls-cert'], 'tls-cert'), key: await readPem(io.cwd, flags['tls-key'], 'tls-key') };
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const [{ startTeamServer }, { openTeamStore, tokenStoreOf }] = await Promise.all([import('../../serve/index.js'), import('../../serve/open-token-store.js')]);
  const storage = await openTeamStore(project, io.env);
  const tokens = await tokenStoreOf(storage, project);
  const server = await startTeamServer({
    projectRoot: project.root,
    tokens,
    ...(storage ? { storage } : {}),
    ...(flags.host === undefined ? {} : { host: flags.host }),
    port: flags.port ?? 4848,
    ...(tls ? { tls } : {}),
    ...(flags['allow-host'] ? { allowHosts: flags['allow-host'] } : {}),
    scores: project.scores,
    log: (line) => io.stderr.write(`serve: ${line}\n`),
  });
  if (server.exposed && !tls) {
    io.stderr.write(`warning: serving on ${server.host} without TLS: tokens and session cookies cross the network in clear; give --tls-cert/--tls-key, or put a TLS reverse proxy in front\n`);
  }
  io.stdout.write(`${server.url}\n`);
  await new Promise<void>((done) => {
    if (io.signal.aborted) done();
    else io.signal.addEventListener('abort', () => done(), { once: true });
  });
  await server.close();
  await tokens.close();
  await storage?.close();
  return ExitCode.ok;
}
