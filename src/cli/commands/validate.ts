import { relative } from 'node:path';
import { validateProject } from '../../experiment/validate-project.js';
import { flattenErrors } from '../../errors/index.js';
import { openProject, resolvePromptPaths } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions } from '../options.js';

const options = commonOptions;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'validate');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark validate [prompt files or folders...]',
        summary:
          'Loads agentmark.json and agentmark.config, every prompt under the project (or the paths given),\n' +
          'renders each with its test_settings.props, binds its evals, and reads every row of its dataset.\n' +
          'Lists every problem as file:line:col: message; exits 2 if there was any.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const project = await openProject(parsed.options.project, io.cwd, parsed.positionals[0]);
  const promptPaths = await resolvePromptPaths(parsed.positionals, io.cwd, project);
  const report = await validateProject(project, promptPaths);
  for (const warning of report.warnings) io.stderr.write(`warning: ${warning}\n`);
  const problems = report.errors.flatMap(flattenErrors);
  for (const problem of problems) io.stdout.write(`${problem.format(io.cwd)}\n`);
  const checked = `${report.prompts} prompt${report.prompts === 1 ? '' : 's'}, ${report.datasets} dataset${report.datasets === 1 ? '' : 's'} (${report.rows} row${report.rows === 1 ? '' : 's'})`;
  if (problems.length > 0) {
    io.stderr.write(`${problems.length} problem${problems.length === 1 ? '' : 's'} found in ${checked}\n`);
    return ExitCode.inputError;
  }
  io.stdout.write(`ok: ${checked} in ${relative(io.cwd, project.root) || '.'}\n`);
  return ExitCode.ok;
}
