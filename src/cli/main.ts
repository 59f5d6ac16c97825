import { commands } from './commands.js';
import { globalHelp } from './global-help.js';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { interruptedMessage } from './interrupted-message.js';
import { printError } from './print-error.js';
import { packageVersion } from './version.js';
import { didYouMean } from '../errors/closest.js';
import { traceStartup } from '../startup-trace.js';

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
    // Stopped before the command could say so itself (Ctrl-C while the project, the config or
    // the dataset was still loading): whatever the stop made fail, it is an interrupt.
    if (io.signal.aborted) {
      io.stderr.write(interruptedMessage(io.signal, undefined));
      return ExitCode.interrupted;
    }
    return printError(error, io.stderr, io.cwd);
  }
}
