import { buildGrid, compareRuns, type CompareResult, type GridResult } from '../../compare/index.js';
import { runRefStore } from '../open-store.js';
import { outputFormat } from '../report-format.js';
import { UsageError } from '../../errors/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import { RunStore, type StoredRun } from '../../store/index.js';
import { compareAgreement } from '../../review/index.js';
import { formatCompareAgreement } from '../../report/format-compare-agreement.js';
import { formatCompareMarkdown, formatCompareTable, formatGridMarkdown, formatGridTable } from '../../report/compare/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { gateFails } from '../gate-fails.js';
import { openReportOutput } from '../report-output.js';
import { projectPath } from '../project-path.js';

export const compareOptions = {
  ...commonOptions,
  format: { type: 'string', value: '<fmt>', description: "table, json, markdown or html (one self-contained page); default: from -o's extension (grid.html, .json, .md), else table" },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write the comparison to a file instead of stdout' },
  'fail-on-regression': { type: 'boolean', description: 'Exit 1 when the gate says regressed: an eval significantly worse in head (one-sided, after Holm)' },
  'fail-on-inconclusive': { type: 'boolean', description: 'Exit 1 also when the gate says inconclusive: the test could not have seen a drop of --max-drop points' },
  alpha: { type: 'number', value: '<a>', min: 0.000001, max: 0.5, default: 0.05, description: 'Significance level of the gate' },
  'max-drop': {
    type: 'number',
    value: '<points>',
    min: 0,
    max: 100,
    description: 'The drop the comparison must be able to detect to say "no regression" (default 5); given, a larger drop also exits 1',
  },
  seed: { type: 'integer', value: '<s>', default: 0, description: 'Bootstrap seed' },
  resamples: { type: 'integer', value: '<n>', min: 10_000, max: 1_000_000, default: 10_000, description: 'Bootstrap resamples' },
  show: { type: 'integer', value: '<n>', min: 0, default: 20, description: 'Changed rows listed in full' },
  prompt: { type: 'string', value: '<path>', description: '`latest`, `@<git-ref>`, `branch:<name>` and `commit:<sha>` mean runs of this prompt' },
  truncate: { type: 'integer', value: '<n>', min: 0, default: 200, description: 'Cut inputs and outputs to n characters in the table (0: never)' },
  disagree: { type: 'boolean', description: 'Grid (three or more runs): only rows where the runs\' verdicts or outputs differ (always in markdown)' },
  failed: { type: 'boolean', description: 'Grid: only rows where some run errored or did not pass an eval' },
  sort: { type: 'string', value: '<order>', default: 'dataset', description: 'Grid: dataset, or disagreement (most evals differing first)' },
  limit: { type: 'integer', value: '<n>', min: 0, description: 'Grid: rows shown, the rest counted (default 100 in markdown, 1000 otherwise)' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark compare <base> <head> [<head>…] [options]',
  summary:
    'Compares two runs row by row (rows paired by their content) and reports per eval the\n' +
    'difference head − base with 95% intervals, p-values (Holm-adjusted across evals), the rows\n' +
    `that changed verdict, and whether the change is significant. A run is ${RUN_REF_FORMS}.\n` +
    'With three or more runs: each head against the base, then the results grid (one row per\n' +
    'dataset row common to all runs, one column per run: output, eval chips, latency, cost).',
  options: compareOptions,
  details:
    'The gate says regressed (a significant drop), no regression (none, and the test could have seen a drop of\n' +
    '--max-drop points) or inconclusive (it could not: more rows are needed).\n' +
    'Exit codes: 0 no regression, inconclusive (unless --fail-on-inconclusive) or no gate asked for;\n' +
    '1 the gate fired; 2 usage or input error (including two runs with no row in common).',
};

async function compareHtml(projectRoot: string, result: CompareResult, runs: StoredRun[]): Promise<string> {
  const { buildCompareReportData, renderReportHtml } = await import('../../view/index.js');
  return renderReportHtml(await buildCompareReportData(projectRoot, result, runs));
}

interface GridContext {
  format: string;
  sort: 'dataset' | 'disagreement';
  options: Partial<Record<keyof typeof compareOptions, unknown>> & { [K in 'output']?: string };
  projectRoot: string;
}

/** Three or more runs: each head against the base, then the results grid. Exit 1 when any head's gate fails. */
async function runGrid(runs: StoredRun[], { format, sort, options, projectRoot }: GridContext, io: CliIO): Promise<number> {
  const num = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);
  const failOnInconclusive = options['fail-on-inconclusive'] === true;
  const grid = await buildGrid(runs, {
    projectRoot,
    alpha: num(options.alpha, 0.05),
    seed: num(options.seed, 0),
    resamples: num(options.resamples, 10_000),
    maxChangedRows: num(options.show, 20),
    ...(options['max-drop'] === undefined ? {} : { maxDrop: num(options['max-drop'], 5) }),
    failOnRegression: options['fail-on-regression'] === true || failOnInconclusive || options['max-drop'] !== undefined,
    // A pull-request comment lists the changed rows only: where the runs disagree.
    disagree: options.disagree === true || format === 'markdown',
    failed: options.failed === true,
    sort,
    limit: num(options.limit, format === 'markdown' ? 100 : 1000),
  });
  const page = format === 'html' ? await gridHtml(grid, runs) : undefined;
  const output = openReportOutput(options.output, io.cwd, io.stdout);
  try {
    const truncate = num(options.truncate, 200);
    if (format === 'json') output.stream.write(`${JSON.stringify(grid, null, 2)}\n`);
    else if (page !== undefined) output.stream.write(page);
    else if (format === 'markdown') output.stream.write(formatGridMarkdown(grid, { truncate }));
    else {
      const width = output.stream.columns !== undefined && output.stream.columns > 0 ? output.stream.columns : undefined;
      output.stream.write(formatGridTable(grid, { truncate, ...(width === undefined ? {} : { width }) }));
    }
  } finally {
    output.close();
  }
  return grid.comparisons.some((c) => gateFails(c, failOnInconclusive)) ? ExitCode.gateFailed : ExitCode.ok;
}

/** The width a table written to `stream` fits: the terminal's, else COLUMNS, else 100; none for a file. */
const widthOf = (stream: { columns?: number }): { width?: number } => (stream.columns !== undefined && stream.columns > 0 ? { width: stream.columns } : {});

async function gridHtml(grid: GridResult, runs: readonly StoredRun[]): Promise<string> {
  const { buildGridReportData, renderReportHtml } = await import('../../view/index.js');
  return renderReportHtml(buildGridReportData(grid, runs));
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, compareOptions, 'compare');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (positionals.length < 2) {
    throw new UsageError('USAGE_MISSING_RUN', `compare needs two runs, base then head; got ${positionals.length}`, {
      hint: 'e.g. `agentmark compare latest~1 latest`',
    });
  }
  const format = outputFormat(options.format, options.output, ['table', 'json', 'markdown', 'html'], 'compare');
  if (!['table', 'json', 'markdown', 'html'].includes(format)) {
    throw new UsageError('USAGE_BAD_VALUE', `--format ${format}: compare prints table, json, markdown or html`);
  }
  const sort = options.sort ?? 'dataset';
  if (sort !== 'dataset' && sort !== 'disagreement') {
    throw new UsageError('USAGE_BAD_VALUE', `--sort ${sort}: the grid sorts by dataset or disagreement`);
  }
  if (positionals.length === 2) {
    const gridOnly = (['disagree', 'failed', 'limit'] as const).filter((name) => options[name] !== undefined).map((name) => `--${name}`);
    if (options.sort !== undefined && options.sort !== 'dataset') gridOnly.push('--sort');
    if (gridOnly.length > 0) {
      throw new UsageError('USAGE_CONFLICT', `${gridOnly.join(', ')}: only for the results grid of three or more runs`, { hint: 'name a third run, e.g. `agentmark compare A B C --disagree`' });
    }
  }
  const project = await openProject(options.project, io.cwd);
  const context = { projectRoot: project.root, cwd: io.cwd, ...runRefStore(project, io), ...(options.prompt === undefined ? {} : { prompt: projectPath(project, io.cwd, options.prompt) }) };
  if (positionals.length > 2) {
    const runs: StoredRun[] = [];
    for (const ref of positionals) runs.push(await resolveRunRef(ref, context));
    return runGrid(runs, { format, sort, options, projectRoot: project.root }, io);
  }
  // Opened here so the html report can inline both runs' rows next to the comparison.
  const base = await resolveRunRef(positionals[0] as string, context);
  const head = await resolveRunRef(positionals[1] as string, context);
  const result = await compareRuns(base, head, {
    projectRoot: project.root,
    alpha: options.alpha ?? 0.05,
    seed: options.seed ?? 0,
    resamples: options.resamples ?? 10_000,
    maxChangedRows: options.show ?? 20,
    ...(options['max-drop'] === undefined ? {} : { maxDrop: options['max-drop'] }),
    failOnRegression: (options['fail-on-regression'] ?? false) || (options['fail-on-inconclusive'] ?? false) || options['max-drop'] !== undefined,
  });
  // Both runs' judge–human agreement, shown when both have labels.
  const agreement = format === 'html' ? undefined : await compareAgreement(base, head, project.scores, new RunStore(project.root));
  // The viewer's code loads only for this format; the page is built before -o's file is opened.
  const page = format === 'html' ? await compareHtml(project.root, result, [base, head]) : undefined;
  const output = openReportOutput(options.output, io.cwd, io.stdout);
  try {
    if (format === 'json') output.stream.write(`${JSON.stringify(agreement ? { ...result, agreement } : result, null, 2)}\n`);
    else if (page !== undefined) output.stream.write(page);
    else if (format === 'markdown') output.stream.write(formatCompareMarkdown(result) + (agreement ? formatCompareAgreement(agreement, true) : ''));
    else output.stream.write(formatCompareTable(result, { truncate: options.truncate ?? 200, ...widthOf(output.stream) }) + (agreement ? formatCompareAgreement(agreement) : ''));
  } finally {
    output.close();
  }
  return gateFails(result, options['fail-on-inconclusive'] ?? false) ? ExitCode.gateFailed : ExitCode.ok;
}
