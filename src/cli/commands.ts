import type { CommandRun } from './io.js';

export interface CommandEntry {
  summary: string;
  /** Loaded only when the command runs, so --help and --version stay fast. */
  load: () => Promise<{ run: CommandRun }>;
  /** Handles Ctrl-C itself (stops dispatching, writes what finished). */
  interruptible?: boolean;
  /**
   * Ends the process itself, with its own code (the language server's library exits on the
   * client's `exit` notification, or when stdin closes): not a user's process.exit mid-run.
   */
  exitsItself?: boolean;
}

export const commands: Record<string, CommandEntry> = {
  'run-experiment': {
    summary: 'Run a prompt over every row of its dataset, score each row, and report',
    load: () => import('./commands/run-experiment.js'),
    interruptible: true,
  },
  watch: {
    summary: 'Run experiments, then rerun the affected ones whenever a file they use changes',
    load: () => import('./commands/watch.js'),
    interruptible: true,
  },
  'run-prompt': {
    summary: 'Run one prompt once and print its output',
    load: () => import('./commands/run-prompt.js'),
    interruptible: true,
  },
  score: {
    summary: 'Score pre-generated outputs with a prompt\'s evals, without calling a model',
    load: () => import('./commands/score.js'),
    interruptible: true,
  },
  runs: {
    summary: 'List past runs, show a run\'s report again, or prune old runs',
    load: () => import('./commands/runs.js'),
  },
  store: {
    summary: 'The team store (PostgreSQL): migrate its schema, check every completed run against its integrity record',
    load: () => import('./commands/store.js'),
  },
  batches: {
    summary: 'Show or cancel the batch jobs (OpenAI or Anthropic) of a run made with --batch',
    load: () => import('./commands/batches.js'),
  },
  compare: {
    summary: 'Compare two runs row by row, with paired statistics and an optional regression gate',
    load: () => import('./commands/compare.js'),
  },
  ci: {
    summary: 'Check a pull request: every prompt at head against its base commit; one report or PR comment',
    load: () => import('./commands/ci.js'),
    interruptible: true,
  },
  rerun: {
    summary: 'Run a past run\'s stored prompt again over the same rows with the same settings',
    load: () => import('./commands/rerun.js'),
    interruptible: true,
  },
  annotate: {
    summary: "Label a row's eval as a person judged it (kept in the run's annotations.jsonl)",
    load: () => import('./commands/annotate.js'),
  },
  agreement: {
    summary: 'How often each judge agrees with the human labels of a run, with intervals',
    load: () => import('./commands/agreement.js'),
  },
  dataset: {
    summary: 'Write dataset rows from a run (dataset from-run: failed or reviewed rows become tests) or from OTLP traces (dataset from-traces)',
    load: () => import('./commands/dataset.js'),
  },
  merge: {
    summary: 'Build one run from the shards of a sharded run (run-experiment --shard i/n)',
    load: () => import('./commands/merge.js'),
  },
  render: {
    summary: 'Render a prompt with props and print the messages as JSON',
    load: () => import('./commands/render.js'),
  },
  view: {
    summary: 'Serve a local web viewer of the project\'s runs (live while a run is going)',
    load: () => import('./commands/view.js'),
    interruptible: true,
  },
  serve: {
    summary: 'Serve the viewer for a team: accounts by token, roles (viewer, reviewer, writer, admin), HTTPS',
    load: () => import('./commands/serve.js'),
    interruptible: true,
  },
  tokens: {
    summary: 'Create, list or revoke the tokens (accounts) of agentmark serve',
    load: () => import('./commands/tokens.js'),
  },
  init: {
    summary: 'Create a starter project: agentmark.json, a prompt, a dataset, a config with a scorer',
    load: () => import('./commands/init.js'),
  },
  validate: {
    summary: 'Check agentmark.json, every prompt and every dataset; list every problem',
    load: () => import('./commands/validate.js'),
  },
  lsp: {
    summary: 'Start the language server for editors (diagnostics, completion, hover, quick fixes) over stdio',
    load: () => import('./commands/lsp.js'),
    exitsItself: true,
  },
  import: {
    summary: 'Write a project from promptfoo or OpenAI Evals files, with a report of what came over (import promptfoo | openai-evals)',
    load: () => import('./commands/import.js'),
  },
  migrate: {
    summary: "Write agentmark.config.ts from an AgentMark project's client (its eval functions) and list what differs",
    load: () => import('./commands/migrate.js'),
  },
};
