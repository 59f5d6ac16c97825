import { UsageError } from '../../errors/index.js';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openProject, resolvePromptPaths } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { parseOptions, type OptionTable } from '../options.js';
import { runOptions } from '../run-options.js';
import { modelsFromFlags, runSettingsFromFlags } from '../run-settings.js';
import { startViewer } from '../view-server.js';

/** run-experiment's flags minus those that make no sense for a session of many reruns. */
const watchOptions: OptionTable = {
  ...Object.fromEntries(Object.entries(runOptions).filter(([name]) => !['resume', 'format', 'output', 'watch'].includes(name))),
  truncate: { ...runOptions.truncate, default: 100, description: 'Cut inputs, outputs and errors of shown rows to n characters (0: never)' },
};
type WatchOptionTable = Omit<typeof runOptions, 'resume' | 'format' | 'output' | 'watch'>;

const help = {
  usage: 'agentmark watch <prompt files or folders...> [options]   (also: agentmark run-experiment --watch)',
  summary:
    'Runs each experiment once, then watches every file it reads (prompt, components, dataset,\n' +
    'agentmark.json, the config and its imports) and reruns the affected experiments on a change.\n' +
    'Unchanged rows come from the response cache; every rerun is kept in the run store.',
  options: watchOptions,
  details: 'Keys: r rerun all, f rerun failed rows, q quit (on a pipe: a line with q). Ctrl-C quits with 130.',
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options, positionals } = parseOptions(argv, watchOptions as WatchOptionTable, 'watch');
  if (options.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const compares = ['baseline', 'baseline-commit', 'side-by-side', 'alpha', 'max-drop', 'batch'].filter((name) => (options as Record<string, unknown>)[name] !== undefined);
  if (compares.length > 0 || modelsFromFlags(options.model).length > 1) {
    throw new UsageError('USAGE_CONFLICT', `watch reruns one run per prompt: ${compares.length > 0 ? `--${compares[0]}` : 'several --model'} is for run-experiment`, {
      hint: 'watch shows ▲/▼ against the previous run by itself; compare runs afterwards with `agentmark compare`',
    });
  }
  const settings = runSettingsFromFlags(options);
  const project = await openProject(options.project, io.cwd, positionals[0]);
  const prompts = await resolvePromptPaths(positionals, io.cwd, project);
  const targets = { files: new Set<string>(), folders: [] as string[] };
  if (positionals.length === 0) targets.folders.push(project.promptRoot);
  for (const path of positionals.map((p) => resolve(io.cwd, p))) {
    if ((await stat(path)).isDirectory()) targets.folders.push(path);
    else targets.files.add(path);
  }
  // Loaded here so `agentmark --help` never pays for the watcher.
  const { runWatchSession } = await import('../../watch/index.js');
  const viewer = options.view ? await startViewer(project.root, { port: options['view-port'] ?? 4848 }, io.stderr) : undefined;
  if (viewer) io.stderr.write(`viewer: ${viewer.url}\n`);
  try {
    return await runWatchSession({
      project,
      targets,
      prompts,
      run: { ...settings.run, env: io.env },
      stdout: io.stdout,
      ...(io.stdin ? { stdin: io.stdin } : {}),
      cwd: io.cwd,
      signal: io.signal,
      truncate: options.truncate ?? 100,
    });
  } finally {
    await viewer?.close();
  }
}
