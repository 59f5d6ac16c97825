#!/usr/bin/env node
// The package's bin (built into dist/bundle/agentmark.cjs by rolldown.config.mjs, which puts the
// version and the help text in place of the two placeholders below). `--version` and `--help`
// are answered here without loading anything: as CommonJS with no imports they cost node's own
// start-up (+~1 ms; an ES module entry costs ~6 ms more for the ES module loader, and the CLI
// bundle's static imports more again). Every other command loads the CLI, ./cli.cjs (CommonJS
// chunks, see rolldown.config.mjs).
'use strict';

const VERSION = __AGENTMARK_VERSION__;
const HELP = __AGENTMARK_HELP__;

const first = process.argv[2];
if (first === '--version' || first === '-v') answer(`${VERSION}\n`, 0);
// As src/cli/main.ts: no command at all is a usage error (exit 2) that still shows the help.
else if (first === undefined || first === '--help' || first === '-h' || first === 'help') answer(HELP, first === undefined ? 2 : 0);
else {
  holdEarlyStops();
  // As src/startup-trace.ts prints the CLI's phases: from here on a stop signal is held.
  if (process.env.AGENTMARK_TRACE_STARTUP === '1') process.stderr.write(`startup ${performance.now().toFixed(1)} ms bin started\n`);
  // A V8 code cache for the CLI's chunks: they are compiled once, not on every command.
  require('./compile-cache.cjs').enableCompileCache(__dirname);
  require('./cli.cjs');
}

/**
 * A Ctrl-C (SIGINT, SIGTERM, SIGHUP) while the CLI is still loading, before it has handlers of
 * its own, would kill the process by the signal. It is remembered instead, and the CLI acts on
 * it as soon as it has loaded: exit 130, as for any interrupt (src/cli/early-stops.ts).
 */
function holdEarlyStops() {
  const state = { signal: undefined, release: () => {} };
  const hold = (signal) => {
    state.signal = signal;
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, hold);
  state.release = () => {
    for (const signal of signals) process.off(signal, hold);
  };
  globalThis[Symbol.for('agentmark.early-stops')] = state;
}

function answer(text, code) {
  // A reader that went away (`agentmark --help | head -1`) is no error, as in the CLI.
  process.stdout.on('error', () => {});
  process.stdout.write(text);
  process.exitCode = code;
}
