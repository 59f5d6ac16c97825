#!/usr/bin/env node
// The package's bin (built into dist/bundle/agentmark.cjs by rolldown.config.mjs, which puts the
// version and the help text in place of the two placeholders below). `--version` and `--help`
// are answered here without loading anything: as CommonJS with no imports they cost node's own
// start-up (+~1 ms; an ES module entry costs ~6 ms more for the ES module loader, and the CLI
// bundle's static imports more again). Every other command loads the CLI, ./agentmark.js.
'use strict';

const VERSION = __AGENTMARK_VERSION__;
const HELP = __AGENTMARK_HELP__;

const first = process.argv[2];
if (first === '--version' || first === '-v') answer(`${VERSION}\n`, 0);
// As src/cli/main.ts: no command at all is a usage error (exit 2) that still shows the help.
else if (first === undefined || first === '--help' || first === '-h' || first === 'help') answer(HELP, first === undefined ? 2 : 0);
else import('./agentmark.js');

function answer(text, code) {
  // A reader that went away (`agentmark --help | head -1`) is no error, as in the CLI.
  process.stdout.on('error', () => {});
  process.stdout.write(text);
  process.exitCode = code;
}
