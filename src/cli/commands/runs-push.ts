import { dirname, join } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { resolveRunRef } from '../../history/index.js';
import { copyMissingLabels } from '../../review/index.js';
import { copyRun, LocalStorage, openStorage, type RunStorage } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { requireStoreUrl } from '../open-store.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  to: { type: 'string', value: '<url>', description: 'Push to an `agentmark serve` at this http(s) URL, with the writer token in AGENTMARK_TOKEN' },
} satisfies OptionTable;

/** A local run to push: the folder store it sits in and its id. */
interface LocalRun {
  from: LocalStorage;
  id: string;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs push');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs push [runs...] [--to <url>]',
        summary: 'Uploads finished local runs to the team store (every finished run under .agentmark/runs/\nwhen none is named). Pushing a run twice, or from two jobs at once, keeps one copy; a push\nthat was killed goes on where it stopped; a damaged run is refused with its integrity error.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const project = await openProject(flags.project, io.cwd, undefined, io.env);
  const to = flags.to === undefined ? undefined : await serverTarget(flags.to, io.env);
  const url = to === undefined ? requireStoreUrl(project, io.env, 'runs push') : undefined;
  const local = new LocalStorage(project.root);
  const runs: LocalRun[] = [];
  if (positionals.length === 0) {
    for (const manifest of await local.listRuns()) if (manifest.status !== 'running') runs.push({ from: local, id: manifest.id });
  } else {
    for (const ref of positionals) {
      const found = await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd });
      // A run folder from elsewhere (a CI artifact) is pushed from the folder that holds it.
      const inProject = found.dir === local.store.runDir(found.manifest.id);
      runs.push({ from: inProject ? local : new LocalStorage(project.root, { runsDir: dirname(found.dir), blobsDir: join(project.root, '.agentmark', 'blobs') }), id: found.manifest.id });
    }
  }
  const target = to ?? (await openStorage({ projectRoot: project.root, url }));
  try {
    for (const { from, id } of runs) await pushOne(from, target, id, io);
    if (runs.length === 0) io.stdout.write('no finished runs to push\n');
    return ExitCode.ok;
  } finally {
    await target.close();
  }
}

async function pushOne(from: RunStorage, target: RunStorage, id: string, io: CliIO): Promise<void> {
  const result = await copyRun(from, target, id, {
    onProgress: (stored, total) => io.stderr.write(`pushing ${id}: ${stored}/${total} rows\n`),
  });
  // Labels written here since the run reached the store (e.g. while it was down) go after it.
  const labels = await copyMissingLabels(from, target, id);
  const sent = labels === 0 ? '' : `; ${labels} label${labels === 1 ? '' : 's'} sent`;
  const rows = `${result.rows} row${result.rows === 1 ? '' : 's'}`;
  if (result.repaired === true) io.stdout.write(`repaired ${id} in ${target.location}: its stored rows did not match its integrity record; ${rows} sent again${sent}\n`);
  else if (result.already) io.stdout.write(`${id}: already in ${target.location} (${rows})${sent}\n`);
  else io.stdout.write(`pushed ${id}: ${rows}${result.sent < result.rows ? ` (${result.sent} sent now, the rest by an earlier push)` : ''} to ${target.location}${sent}\n`);
}

/** `--to https://host:port`: a team server's store, reached with the writer token in AGENTMARK_TOKEN. */
async function serverTarget(to: string, env: NodeJS.ProcessEnv): Promise<RunStorage> {
  const { HttpStorage, TOKEN_ENV } = await import('../../serve/http-storage.js');
  let parsed: URL | undefined;
  try {
    parsed = new URL(to);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new UsageError('USAGE_BAD_ARGUMENT', `--to ${to} is not an http(s) URL`, { hint: 'give the address of an `agentmark serve`, e.g. --to https://evals.example.com' });
  }
  const token = env[TOKEN_ENV];
  if (token === undefined || token === '') {
    throw new UsageError('USAGE_MISSING_TOKEN', `runs push --to needs a writer token in ${TOKEN_ENV}`, { hint: 'make one with `agentmark tokens create --name ci-main --role writer` and set AGENTMARK_TOKEN to it' });
  }
  return new HttpStorage(parsed.href, token);
}
