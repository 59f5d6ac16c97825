import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openProject } from '../context.js';
import { startViewer, viewOptions } from '../view-server.js';
import { UsageError } from '../../errors/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import { runRefStore } from '../open-store.js';

const options = {
  ...commonOptions,
  ...viewOptions,
  'read-only': { type: 'boolean', description: 'Only look: no label controls, and the server accepts no writes' },
  reviewer: { type: 'string', value: '<name>', description: 'Who labels rows in the viewer (default: git config user.name; else the page asks)' },
  row: { type: 'integer', value: '<n>', min: 0, description: "With a run: print that row's page (a conversation's transcript) instead of the run's" },
} satisfies OptionTable;

const help = {
  usage: 'agentmark view [<run> [--row <n>]] [--port 4848] [--host 127.0.0.1] [--open] [--reviewer <name>] [--read-only]',
  summary:
    'Serves a local web app over the project\'s runs (.agentmark/runs/): the runs, each run\'s\n' +
    'statistics and rows, each row\'s messages, output and eval reasons; running runs update live.\n' +
    'Reviewers label rows (pass/fail, a score or a label, a note) into each run\'s annotations.jsonl,\n' +
    'from a row\'s page or the review queue; --read-only turns that off. Nothing is uploaded.\n' +
    `Given a run (${RUN_REF_FORMS}), it prints that run's page; with a team store\n` +
    'the run is looked up there first, as compare does, and brought into .agentmark/runs/.\n' +
    'Stop it with Ctrl-C.',
  options,
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'view');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (positionals.length > 1) throw new UsageError('USAGE_BAD_ARGUMENT', `view takes at most one run, got "${positionals[1]}" too`, { hint: 'use --project <dir> for another project' });
  if (flags.row !== undefined && positionals[0] === undefined) throw new UsageError('USAGE_BAD_ARGUMENT', '--row needs a run', { hint: 'e.g. `agentmark view latest --row 0`' });
  const project = await openProject(flags.project, io.cwd);
  // The same resolution as compare's: the team store first (the run is copied into
  // .agentmark/runs/, which the viewer serves), then the local folder.
  const ref = positionals[0];
  const run = ref === undefined ? undefined : await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd, ...runRefStore(project, io) });
  const server = await startViewer(
    project.root,
    {
      ...flags,
      readOnly: flags['read-only'] === true,
      ...(flags.reviewer === undefined ? {} : { reviewer: flags.reviewer }),
      scores: project.scores,
    },
    io.stderr,
  );
  const page = run === undefined ? '' : `#/runs/${encodeURIComponent(run.manifest.id)}${flags.row === undefined ? '' : `/rows/${flags.row}`}`;
  io.stdout.write(`${server.url}${page}\n`);
  // Ctrl-C is how a server is stopped: a normal end, not an interruption of work.
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return ExitCode.ok;
}
