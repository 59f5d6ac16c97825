import { UsageError } from '../../errors/index.js';
import { runRefStore } from '../open-store.js';
import { resolveRunRef } from '../../history/index.js';
import { unfinishedRunError, type RunStatus } from '../../store/index.js';
import type { RunSummary } from '../../experiment/types.js';
import { reporters } from '../../report/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openReportOutput } from '../report-output.js';
import { reportFormat } from '../report-format.js';
import { projectPath } from '../project-path.js';
import { storedRunInfo } from '../run-info.js';

const options = {
  ...commonOptions,
  format: { type: 'string', value: '<fmt>', description: 'table, json, jsonl, csv, junit, markdown or html (default: from the -o file\'s extension, else table)' },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write the report to a file instead of stdout' },
  truncate: { type: 'integer', value: '<n>', min: 0, default: 200, description: 'Cut table cells to n characters (0: never)' },
  'all-rows': { type: 'boolean', description: 'The table shows every row (above 50 rows it shows the failed and errored ones)' },
  prompt: { type: 'string', value: '<path>', description: '`latest`, `@<git-ref>`, `branch:<name>` and `commit:<sha>` mean runs of this prompt' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'runs show');
  if (flags.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark runs show <run> [--format table|json|jsonl|csv|junit|markdown|html]',
        summary: "Prints a past run's report again, from disk, without running anything (the same reports as\nrun-experiment). Exit 1 when the run's gates failed, as the run itself did.",
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'runs show needs a run', { hint: 'e.g. `agentmark runs show latest`' });
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `runs show takes one run, got also "${extra}"`);
  const format = reportFormat(flags.format, flags.output);
  const project = await openProject(flags.project, io.cwd);
  const stored = await resolveRunRef(ref, {
    projectRoot: project.root,
    cwd: io.cwd,
    ...runRefStore(project, io),
    ...(flags.prompt === undefined ? {} : { prompt: projectPath(project, io.cwd, flags.prompt) }),
  });
  const storedSummary = stored.manifest.summary;
  if (!storedSummary) {
    throw unfinishedRunError(stored.dir, stored.manifest);
  }
  const summary = unfinished(stored.manifest.status, storedSummary);
  const info = storedRunInfo(stored, io.cwd);
  const output = openReportOutput(flags.output, io.cwd, io.stdout);
  try {
    const width = output.stream.columns !== undefined && output.stream.columns > 0 ? output.stream.columns : undefined;
    const reporter = reporters[format](output.stream, { truncate: flags.truncate ?? 200, cwd: io.cwd, ...(flags['all-rows'] || flags.output !== undefined ? { allRows: true } : {}), ...(width === undefined ? {} : { width }), ...(output.stream.color ? { color: true } : {}) });
    await reporter.onRunStart?.(info);
    // Only a reporter that listens row by row (the table, jsonl) gets the extra pass: the others
    // read the rows once, at the end (a 1,000,000-row run is a second's parse a pass).
    if (reporter.onRowEnd) for await (const row of stored.rowsInOrder()) await reporter.onRowEnd(row);
    await reporter.onRunEnd?.(summary, info, () => stored.rowsInOrder());
  } finally {
    output.close();
  }
  return summary.passed ? ExitCode.ok : ExitCode.gateFailed;
}

/**
 * A run that did not finish never shows as passed, also when it was stored before its summary
 * said so (`outcome`): its rows that never ran cannot pass.
 */
function unfinished(status: RunStatus, summary: RunSummary): RunSummary {
  if (status !== 'interrupted' && status !== 'failed' && status !== 'running') return summary;
  if (summary.outcome !== undefined) return summary;
  return { ...summary, passed: false, outcome: status === 'failed' ? 'failed' : 'interrupted' };
}
