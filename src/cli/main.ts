import { commands } from './commands.js';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { printError } from './print-error.js';
import { packageVersion } from './version.js';
import { didYouMean } from '../errors/closest.js';
import { traceStartup } from '../startup-trace.js';

function globalHelp(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((name) => name.length));
  const lines = [
    'Usage: agentmark <command> [options]',
    '',
    'Evaluate AgentMark .prompt.mdx prompts against their datasets.',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${commands[name]?.summary ?? ''}`),
    '',
    'Options:',
    '  -h, --help     Show help (also `agentmark <command> --help`)',
    '  -v, --version  Print the version',
    '',
    'Exit codes: 0 success, 1 a gate failed, 2 usage or input error, 130 interrupted.',
  ];
  return `${lines.join('\n')}\n`;
}

/** Dispatches to a command; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return ExitCode.ok;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(globalHelp());
    return first === undefined ? ExitCode.inputError : ExitCode.ok;
  }
  const entry = commands[first];
  if (!entry) {
    const hint = didYouMean(first, Object.keys(commands));
    io.stderr.write(
      `error: unknown command "${first}"${hint ? `; ${hint}` : ''}\n  hint: run \`agentmark --help\` to list the commands\n`,
    );
    return ExitCode.inputError;
  }
  try {
    const module = await entry.load();
    traceStartup(`command ${first} loaded`);
    return await module.run(rest, io);
  } catch (error) {
    return printError(error, io.stderr, io.cwd);
  }
}
