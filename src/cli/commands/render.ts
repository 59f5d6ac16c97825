import { resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { loadConfig } from '../../project/index.js';
import { loadPrompt } from '../../prompt/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { propsFromFlags } from '../props-input.js';

export const propsOptions = {
  props: { type: 'string', value: '<json>', description: 'Props as a JSON object' },
  'props-file': { type: 'string', value: '<file>', description: 'Props from a JSON or YAML file' },
  row: { type: 'integer', value: '<n>', min: 0, description: "Props from the n-th row (zero-based) of the prompt's dataset" },
} satisfies OptionTable;

const options = { ...commonOptions, ...propsOptions } satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'render');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark render <prompt> [--props <json> | --props-file <file> | --row <n>]',
        summary: 'Renders a prompt and prints { name, messages, text_config | object_config, test_settings } as JSON\n(image and speech prompts: { name, image_config | speech_config, test_settings }).\nWithout props it uses test_settings.props.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [path, ...extra] = parsed.positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError('USAGE_MISSING_PROMPT', 'render takes exactly one prompt file', {
      hint: 'e.g. `agentmark render prompts/support.prompt.mdx --row 0`',
    });
  }
  const project = await openProject(parsed.options.project, io.cwd, path);
  // The config holds the project's own filters, which the body may call.
  const { filters } = await loadConfig(project, { fsCache: true });
  const prompt = await loadPrompt(resolve(io.cwd, path), { project, filters });
  const props = await propsFromFlags(parsed.options, prompt, project, io.cwd);
  io.stdout.write(`${JSON.stringify(prompt.render(props), null, 2)}\n`);
  return ExitCode.ok;
}
