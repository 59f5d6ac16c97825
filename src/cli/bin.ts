#!/usr/bin/env node
import { commands } from './commands.js';
import { colorSupported } from './color-support.js';
import { envColumns, PIPED_COLUMNS } from './env-columns.js';
import { ExitCode } from './exit-codes.js';
import { exitWhenDone } from './exit-when-done.js';
import { guardUnfinishedExit } from './unfinished-exit-guard.js';
import { catchStrayErrors } from './stray-errors.js';
import { takeEarlyStop } from './early-stops.js';
import { guardedStream, StdoutClosed } from './guarded-stream.js';
import { main } from './main.js';
import { traceStartup } from '../startup-trace.js';

traceStartup('bin loaded');

// The AI SDK prints its own warnings (e.g. an unsupported setting) to the console, which
// would break table and JSON output; runs record what matters in their results instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const argv = process.argv.slice(2);
const controller = new AbortController();

// Long-running commands stop dispatching on the first Ctrl-C and write what finished;
// a second Ctrl-C exits at once (results already appended are on disk).
// Once the command returned, a Ctrl-C (the process held by something a hook left open) ends it
// at once with the command's code.
let finished: number | undefined;
const onStop = (): void => {
  if (finished !== undefined) process.exit(finished);
  if (controller.signal.aborted) process.exit(ExitCode.interrupted);
  controller.abort();
};
guardUnfinishedExit(process, () => finished !== undefined || (argv[0] !== undefined && commands[argv[0]]?.exitsItself === true));
const stray = catchStrayErrors();
if (argv[0] !== undefined && commands[argv[0]]?.interruptible) {
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);
  // A closed terminal (or `kill -HUP`) stops a run as SIGTERM does: saved, resumable. Node's
  // default for it is to die at once, like a kill -9, with the manifest left `running`.
  process.on('SIGHUP', onStop);
}
// A stop while the CLI was still loading: the command starts interrupted, and ends at once with 130
// (a command that cannot be interrupted ends before it starts).
if (takeEarlyStop() !== undefined) {
  if (argv[0] !== undefined && commands[argv[0]]?.interruptible) controller.abort();
  else process.exit(ExitCode.interrupted);
}

// A closed stdout (`agentmark run-experiment … | head -1`) stops a run like a Ctrl-C: rows in
// flight finish, the run is saved as interrupted and can be resumed. No stack, nothing printed
// to a pipe that is gone.
const stdout = guardedStream(process.stdout, (error) => {
  const why = (error as NodeJS.ErrnoException).code === 'EPIPE' ? 'stdout was closed' : `stdout failed (${error.message})`;
  if (!controller.signal.aborted) controller.abort(new StdoutClosed(why));
}, { fallbackColumns: envColumns(process.env) ?? PIPED_COLUMNS, color: colorSupported(process.stdout.isTTY, process.env) });
const stderr = guardedStream(process.stderr, undefined, { color: colorSupported(process.stderr.isTTY, process.env) });

// Not a top-level await: the bundle is CommonJS (rolldown.config.mjs). main() prints its own
// errors, so this promise only rejects on a bug, which catchStrayErrors reports (as it did the
// rejected top-level await).
void main(argv, {
  stdout,
  stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
  stdin: process.stdin,
}).then((returned) => {
  const code = stray.unclaimed && returned === ExitCode.ok ? ExitCode.inputError : returned;
  finished = code;
  exitWhenDone(code, stderr);
});
