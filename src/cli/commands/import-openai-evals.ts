import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { importExitCode, importOpenAIEvals, importSummary, writeImportedFiles } from '../../import/index.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { ExitCode } from '../exit-codes.js';
import { parseOptions, type OptionTable } from '../options.js';

const options = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
  run: { type: 'string', value: '<run.json>', description: "A run of the eval (its data_source: input_messages, model, sampling_params, items)" },
  items: { type: 'string', value: '<items.jsonl>', description: 'The eval\'s items, one {"item": {...}} (optionally with "sample") per line' },
  output: { type: 'string', short: 'o', value: '<dir>', description: 'Folder to write the project into (default: the current folder)' },
  force: { type: 'boolean', description: 'Overwrite files that already exist' },
} satisfies OptionTable;

/** Reads a file the importer names, relative to where the command runs; undefined when absent. */
export const reader = (cwd: string) => async (file: string): Promise<string | undefined> =>
  readFile(resolve(cwd, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'EISDIR') return undefined;
    throw error;
  });

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'import openai-evals');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark import openai-evals <eval.json> [--run run.json] [--items items.jsonl] [-o dir] [--force]',
        summary:
          'Writes a project from an OpenAI Evals definition (the body of POST /v1/evals, or an eval as\n' +
          'the API returned it): item_schema -> input_schema, the run\'s input_messages -> role tags,\n' +
          'graders -> evals, items -> a JSONL dataset; and IMPORT.md, saying what came over and what not.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [evalFile, ...extra] = parsed.positionals;
  if (evalFile === undefined) throw new UsageError('USAGE_MISSING_FILE', 'import openai-evals needs the eval definition', { hint: 'e.g. `agentmark import openai-evals eval.json --run run.json -o my-evals`' });
  if (extra.length > 0) throw new UsageError('USAGE_BAD_ARGUMENT', `import openai-evals takes one eval file, got also ${extra.join(', ')}`);
  const result = await importOpenAIEvals({
    evalFile,
    ...(parsed.options.run === undefined ? {} : { runFile: parsed.options.run }),
    ...(parsed.options.items === undefined ? {} : { itemsFile: parsed.options.items }),
    read: reader(io.cwd),
  });
  return finishImport(result, parsed.options.output, parsed.options.force === true, io);
}

/** Writes what an importer made (or, when nothing was readable, says why) and returns the exit code. */
export async function finishImport(result: Awaited<ReturnType<typeof importOpenAIEvals>>, output: string | undefined, force: boolean, io: CliIO): Promise<number> {
  if (!result.readable) {
    for (const issue of result.leftOut) {
      io.stderr.write(`error: ${issue.from.file}${issue.from.line === undefined ? '' : `:${issue.from.line}`}: ${issue.what}: ${issue.why}\n`);
    }
    return ExitCode.inputError;
  }
  const dir = resolve(io.cwd, output ?? '.');
  const shown = relative(io.cwd, dir);
  const written = await writeImportedFiles(dir, result.files, { force, shownDir: shown });
  io.stdout.write(importSummary(result, written, shown));
  return importExitCode(result);
}
