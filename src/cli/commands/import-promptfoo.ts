import { UsageError } from '../../errors/index.js';
import { importPromptfoo } from '../../import/index.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { parseOptions, type OptionTable } from '../options.js';
import { finishImport, reader } from './import-openai-evals.js';

const options = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
  output: { type: 'string', short: 'o', value: '<dir>', description: 'Folder to write the project into (default: the current folder)' },
  force: { type: 'boolean', description: 'Overwrite files that already exist' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'import promptfoo');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark import promptfoo [promptfooconfig.yaml] [-o dir] [--force]',
        summary:
          'Writes a project from a promptfoo config: a .prompt.mdx per prompt, one JSONL dataset of the\n' +
          'tests (vars -> input, asserts -> row evals), defaultTest asserts -> every prompt\'s evals,\n' +
          'providers -> model_name / test_settings.models, agentmark.json score schemas and, for inline\n' +
          'javascript asserts, agentmark.config.ts; and IMPORT.md, saying what came over and what not.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [configFile = 'promptfooconfig.yaml', ...extra] = parsed.positionals;
  if (extra.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `import promptfoo takes one config file, got also ${extra.join(', ')}`);
  const result = await importPromptfoo({ configFile, read: reader(io.cwd) });
  return finishImport(result, parsed.options.output, parsed.options.force === true, io);
}
