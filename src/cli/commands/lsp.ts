import { ExitCode } from '../exit-codes.js';
import { tuneHeapForRun } from '../heap-tuning.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { parseOptions, type OptionTable } from '../options.js';

const options = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
  stdio: { type: 'boolean', description: 'Talk LSP over stdin/stdout (the default and only transport; editors pass it)' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'lsp');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark lsp [--stdio]',
        summary:
          'A language server (LSP 3.17) for .prompt.mdx files, agentmark.json and datasets, over stdin/stdout:\n' +
          "validate's diagnostics as you type, completion, hover, go to definition, quick fixes, rename and\n" +
          'code lenses. Started by an editor, not by hand; see docs/editors.md.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  // A server lives as long as the editor and makes garbage at every keystroke: the growth cap a
  // long run gets keeps its RSS near what is live.
  tuneHeapForRun(undefined);
  // Loaded here so that no other command pays for the LSP libraries.
  const { startServer } = await import('../../lsp/server.js');
  return startServer(io.stdin ?? process.stdin, process.stdout);
}
