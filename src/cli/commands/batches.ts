import { UsageError } from '../../errors/index.js';
import { resolveRunRef } from '../../history/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  json: { type: 'boolean', description: 'Print the jobs as JSON' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark batches [list|status|cancel] <run> [--json]',
  summary:
    "The batch jobs (OpenAI's Batch API, Anthropic's Message Batches API) of a run made with `run-experiment --batch`:\n" +
    '  list    the jobs as the run recorded them (no network); kind: model calls, or LLM-judge calls\n' +
    '  status  each job as the server reports it now\n' +
    '  cancel  cancels the jobs still running (their finished answers stay in the output files)\n' +
    'The run is any run reference (an id or unique prefix, a folder, latest).',
  options,
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'batches');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const actions = ['list', 'status', 'cancel'];
  const [first, second, extra] = positionals;
  const action = first !== undefined && actions.includes(first) ? first : 'list';
  const ref = first !== undefined && actions.includes(first) ? second : first;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', `batches ${action} needs a run`, { hint: 'e.g. `agentmark batches status <run-id>`' });
  if ((actions.includes(first ?? '') ? extra : second) !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', 'batches takes one run');
  const project = await openProject(flags.project, io.cwd);
  const stored = await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd });
  const batch = stored.manifest.batch;
  if (batch === undefined || batch.jobs.length === 0) {
    throw new UsageError('USAGE_NOT_A_BATCH_RUN', `run ${stored.manifest.id} has no batch jobs`, { hint: 'batch jobs are made by `run-experiment --batch`' });
  }
  const { AnthropicBatchClient, applyBatchObject, BatchClient, formatBatchProgress, isFinal } = await import('../../batch/index.js');
  let jobs = batch.jobs;
  if (action !== 'list') {
    const client =
      batch.api === 'anthropic'
        ? new AnthropicBatchClient({ baseURL: batch.baseURL, apiKey: io.env.ANTHROPIC_API_KEY?.trim() || undefined, signal: io.signal })
        : new BatchClient({ baseURL: batch.baseURL, apiKey: io.env.OPENAI_API_KEY?.trim() || undefined, signal: io.signal });
    jobs = [];
    for (const recorded of batch.jobs) {
      const job = { ...recorded };
      if (job.batchId !== undefined && (action === 'status' || !isFinal(job))) {
        applyBatchObject(job, action === 'cancel' ? await client.cancel(job.batchId) : await client.retrieve(job.batchId));
      }
      jobs.push(job);
    }
  }
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ run: stored.manifest.id, baseURL: batch.baseURL, endpoint: batch.endpoint, jobs }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const header = ['part', 'kind', 'batch', 'input file', 'status', 'done/total', 'failed'];
  const rows = jobs.map((job) => [
    String(job.part),
    job.kind ?? 'model',
    job.batchId ?? '-',
    job.inputFileId ?? '-',
    job.status ?? 'not submitted',
    `${job.counts?.completed ?? 0}/${job.counts?.total || job.requests}`,
    String(job.counts?.failed ?? 0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  io.stdout.write(`run ${stored.manifest.id}: ${formatBatchProgress(jobs)}\n${batch.baseURL} ${batch.endpoint}\n\n${[line(header), ...rows.map(line)].join('\n')}\n`);
  if (action === 'cancel') io.stdout.write(`\ncancel requested; answers already made stay in the output files: --resume ${stored.manifest.id} collects them\n`);
  return ExitCode.ok;
}
