import { appendFile, readFile } from 'node:fs/promises';
import { teamStoreRef } from '../open-store.js';
import { extname, resolve } from 'node:path';
import { formatCiMarkdown, formatCiTable, mergeCiReports, postComment, runCi, type CiReport } from '../../ci/index.js';
import { parseShardSpec } from '../../shard/index.js';
import { UsageError } from '../../errors/index.js';
import { loadConfig } from '../../project/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { openReportOutput } from '../report-output.js';

export const ciOptions = {
  ...commonOptions,
  base: { type: 'string', value: '<git-ref>', description: "What to compare with (default: the merge base with $GITHUB_BASE_REF when set, else with origin/main, else with main)" },
  'allow-missing-base': { type: 'boolean', description: 'A prompt whose base cannot be had is reported as `no base` instead of exit 2' },
  'fail-on-inconclusive': { type: 'boolean', description: 'Exit 1 also when a comparison is inconclusive (too few rows to see a drop of --max-drop)' },
  alpha: { type: 'number', value: '<a>', min: 0.000001, max: 0.5, default: 0.05, description: 'Significance level of the regression gate' },
  'max-drop': { type: 'number', value: '<points>', min: 0, max: 100, description: 'The drop the comparisons must be able to detect to say "no regression" (default 5); given, a larger drop also regresses' },
  format: { type: 'string', value: '<fmt>', description: 'table, markdown (one PR comment) or json (default: markdown for -o *.md, json for -o *.json, else table)' },
  output: { type: 'string', short: 'o', value: '<file>', description: 'Write the report to a file instead of stdout' },
  comment: { type: 'boolean', description: 'Create or update one comment on the pull request (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL)' },
  'max-cost': { type: 'number', value: '<usd>', min: 0, description: 'Stop live model calls once the runs have cost this much; unfinished prompts are named, exit 2' },
  cache: { type: 'boolean', default: true, description: 'Use the response cache (--no-cache calls the model for every row)' },
  'cache-only': { type: 'boolean', description: 'Never call a model: answers come from the cache (a fork PR with no key); a miss is an errored row' },
  'cache-dir': { type: 'string', value: '<dir>', description: 'The response cache both sides share (default: .agentmark/cache); point actions/cache at it' },
  shard: { type: 'string', value: '<i>/<n>', description: "Only shard i of n of every prompt's rows, at base and head (join the parts' json reports with `agentmark ci merge`)" },
  concurrency: { type: 'integer', value: '<n>', min: 1, max: 1000, default: 20, description: 'Rows in flight at once, per run' },
  quiet: { type: 'boolean', short: 'q', description: 'No progress lines on stderr' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark ci [prompt files or folders...] [options]\n       agentmark ci merge <part reports (json)...> [options]',
  summary:
    'Checks the working tree against a base commit, every prompt with test_settings in one job:\n' +
    'each prompt runs at head with the response cache, its base results come from a finished run\n' +
    'of the base commit in the run store or from a run in a temporary git worktree of the base\n' +
    "(same cache), and the two are compared as `compare` does. A prompt whose files are the same\n" +
    'at base and head runs once and is `unchanged`; others are regressed, inconclusive or no\n' +
    'regression, or new, removed, no base, unfinished or error. One report: a table, one markdown\n' +
    'PR comment (also appended to $GITHUB_STEP_SUMMARY when set), or json.\n' +
    '`ci merge` joins the json reports of `ci --shard i/n` parts: each prompt\'s shard runs (in the\n' +
    'run store) are merged, base and head, and compared again; a missing part is exit 2.',
  options: ciOptions,
  details:
    'Exit codes: 0 nothing regressed and every head gate passed; 1 a prompt regressed (or was\n' +
    'inconclusive, with --fail-on-inconclusive) or a head run failed its own gates; 2 no base\n' +
    '(a ref git does not know, a worktree or base run that could not start; unless\n' +
    '--allow-missing-base), a prompt that could not run, or --max-cost reached; 130 interrupted.\n' +
    'A failed --comment is a warning only.',
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, ciOptions, 'ci');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  if (options['cache-only'] && options.cache === false) throw new UsageError('USAGE_CONFLICT', '--cache-only and --no-cache cannot be used together');
  const format = formatOf(options.format, options.output);
  const project = await openProject(options.project, io.cwd, positionals[0] === 'merge' ? undefined : positionals[0], io.env);
  const compareFlags = {
    allowMissingBase: options['allow-missing-base'] ?? false,
    failOnInconclusive: options['fail-on-inconclusive'] ?? false,
    alpha: options.alpha ?? 0.05,
    ...(options['max-drop'] === undefined ? {} : { maxDrop: options['max-drop'] }),
  };
  const output = openReportOutput(options.output, io.cwd, io.stdout);
  let report: CiReport;
  if (positionals[0] === 'merge') {
    const parts: CiReport[] = [];
    for (const file of positionals.slice(1)) parts.push(await readReport(resolve(io.cwd, file), file));
    report = await mergeCiReports(parts, { projectRoot: project.root, ...compareFlags });
  } else {
    const config = await loadConfig(project, { client: true, fsCache: true });
    for (const warning of config.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
    const say = (line: string): void => void (options.quiet ? undefined : io.stderr.write(`${line}\n`));
    report = await runCi({
      project,
      config,
      cwd: io.cwd,
      paths: positionals,
      ...teamStoreRef(project, io.env),
      ...(options.base === undefined ? {} : { base: options.base }),
      ...compareFlags,
      cacheMode: options['cache-only'] ? 'only' : options.cache === false ? 'off' : 'use',
      cacheDir: resolve(io.cwd, options['cache-dir'] ?? resolve(project.root, '.agentmark', 'cache')),
      concurrency: options.concurrency ?? 20,
      ...(options.shard === undefined ? {} : { shard: parseShardSpec(options.shard) }),
      ...(options['max-cost'] === undefined ? {} : { maxCostUsd: options['max-cost'] }),
      env: io.env,
      signal: io.signal,
      onEvent: (event) => {
        if (event.type === 'warning') io.stderr.write(`warning: ${event.message}\n`);
      },
      onPlan: (plan) => say(`ci: ${plan.prompts} prompt${plan.prompts === 1 ? '' : 's'}; estimated live model calls: ${plan.liveCalls} (cached answers are free)`),
      onPrompt: (result) => say(`ci: ${result.path}: ${result.verdict}`),
    });
  }
  const markdown = formatCiMarkdown(report);
  try {
    output.stream.write(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : format === 'markdown' ? markdown : formatCiTable(report, output.stream.columns !== undefined && output.stream.columns > 0 ? output.stream.columns : 80));
  } finally {
    output.close();
  }
  // Said on stderr whatever the format and --quiet: why the check could not be made.
  if (report.exitCode === ExitCode.inputError) {
    for (const p of report.prompts) if (p.verdict === 'no base' || p.verdict === 'error' || p.verdict === 'unfinished') io.stderr.write(`error: ${p.path}: ${p.verdict}${p.note === undefined ? '' : `: ${p.note}`}\n`);
  }
  await publish(markdown, report, options.comment ?? false, io);
  return report.exitCode;
}

/** A part's `ci --shard i/n --format json` report. */
async function readReport(path: string, given: string): Promise<CiReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError('USAGE_NO_SUCH_FILE', `${given}: no such file`, { hint: 'give the json reports of the parts: ci --shard i/n --format json -o part-i.json' });
  }
  try {
    return JSON.parse(text) as CiReport;
  } catch {
    throw new UsageError('USAGE_BAD_REPORT', `${given}: not a json report of ci`, { hint: 'write each part with --format json' });
  }
}

/** The step summary and the PR comment: the same markdown; neither changes the exit code. */
async function publish(markdown: string, report: CiReport, comment: boolean, io: CliIO): Promise<void> {
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    await appendFile(summary, `${markdown}\n`).catch((error: unknown) => io.stderr.write(`warning: $GITHUB_STEP_SUMMARY could not be written (${error instanceof Error ? error.message : String(error)})\n`));
  }
  if (!comment) return;
  const posted = await postComment(markdown, io.env);
  if ('warning' in posted) io.stderr.write(`warning: ${posted.warning}\n`);
  else io.stderr.write(`ci: pull-request comment ${posted.done} (${report.prompts.length} prompts)\n`);
}

function formatOf(format: string | undefined, output: string | undefined): 'table' | 'markdown' | 'json' {
  if (format !== undefined) {
    if (format === 'table' || format === 'markdown' || format === 'json') return format;
    throw new UsageError('USAGE_BAD_VALUE', `--format ${format}: ci writes table, markdown or json`);
  }
  const ext = output === undefined ? '' : extname(output).toLowerCase();
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.json') return 'json';
  return 'table';
}
