import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';

const HELP = `Usage: agentmark import <tool> [options]

Turns another tool's evaluation files into a project of this one (prompts, datasets, evals,
agentmark.json, agentmark.config.ts) and an import report, IMPORT.md.

Tools:
  openai-evals <eval.json> [--run run.json] [--items items.jsonl] [-o dir]
  promptfoo [promptfooconfig.yaml] [-o dir]

Exit codes: 0 everything came over, 1 something was left out (listed with its file:line),
2 nothing could be read. Run \`agentmark import <tool> --help\` for a tool's options.
`;

/** `agentmark import <tool>`: picks the importer; each lives in its own command file. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [tool, ...rest] = argv;
  if (tool === undefined || tool === '--help' || tool === '-h' || tool === 'help') {
    io.stdout.write(HELP);
    return tool === undefined ? ExitCode.inputError : ExitCode.ok;
  }
  if (tool === 'openai-evals') return (await import('./import-openai-evals.js')).run(rest, io);
  if (tool === 'promptfoo') return (await import('./import-promptfoo.js')).run(rest, io);
  throw new UsageError('USAGE_UNKNOWN_COMMAND', `unknown import source "${tool}"`, { hint: 'use `agentmark import promptfoo` or `agentmark import openai-evals <eval.json>`' });
}
