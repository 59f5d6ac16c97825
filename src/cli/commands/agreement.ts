import { outputFormat } from '../report-format.js';
import { runRefStore } from '../open-store.js';
import { UsageError } from '../../errors/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import { formatAgreementMarkdown, formatAgreementTable } from '../../report/format-agreement-report.js';
import { agreementOfRun } from '../../review/index.js';
import { RunStore } from '../../store/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { fitProse } from '../../report/fit-prose.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openReportOutput } from '../report-output.js';

const options = {
  ...commonOptions,
  format: { type: 'string', value: '<fmt>', description: "table, json or markdown; default: from -o's extension (.json, .md), else table" },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write to a file instead of stdout' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark agreement <run> [--format table|json|markdown]',
  summary:
    'How often each eval\'s judge agrees with people on a run: percent agreement and Cohen\'s kappa\n' +
    '(weighted for numeric scores, with Spearman\'s rho and the mean absolute difference), the\n' +
    'confusion matrix, each with a 95% interval (kappa: small-sample-corrected variance; the\n' +
    'others: a seeded bootstrap over rows); and how the\n' +
    'reviewers agree with each other. Labels come from `agentmark annotate` or the viewer, from\n' +
    `earlier runs whose output was the same, and from the dataset's \`labels\`. A run is ${RUN_REF_FORMS}.`,
  options,
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'agreement');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'agreement needs a run', { hint: 'e.g. `agentmark agreement latest`' });
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `agreement takes one run, got also "${extra}"`);
  const format = outputFormat(flags.format, flags.output, ['table', 'json', 'markdown'], 'agreement');
  if (!['table', 'json', 'markdown'].includes(format)) throw new UsageError('USAGE_BAD_VALUE', `--format ${format}: agreement prints table, json or markdown`);
  const project = await openProject(flags.project, io.cwd);
  const store = new RunStore(project.root);
  const stored = await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd, store, ...runRefStore(project, io) });
  const report = await agreementOfRun(stored, project.scores, store);
  const id = stored.manifest.id;
  const text =
    format === 'json'
      ? `${JSON.stringify({ run: id, ...report }, null, 2)}\n`
      : format === 'markdown'
        ? formatAgreementMarkdown(id, report)
        : formatAgreementTable(id, report);
  const output = openReportOutput(flags.output, io.cwd, io.stdout);
  try {
    const columns = output.stream.columns;
    output.stream.write(format === 'table' ? fitProse(text, columns !== undefined && columns > 0 ? columns : undefined) : text);
  } finally {
    output.close();
  }
  return ExitCode.ok;
}
