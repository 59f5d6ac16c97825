import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { CHAT_PROMPT_PATH, initProject, OUTPUTS_PATH, PROMPT_PATH } from '../../init/index.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { parseOptions, type OptionTable } from '../options.js';

const options = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
  force: { type: 'boolean', description: 'Overwrite the starter files when they already exist' },
  conversation: { type: 'boolean', description: 'Also write a starter conversation: a support chat prompt, a simulated customer and its scenarios' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'init');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark init [dir] [--force] [--conversation]',
        summary:
          'Creates a starter project in dir (default: the current folder): agentmark.json, one prompt\n' +
          'with test_settings, a dataset and pre-generated outputs, agentmark.config.ts with a custom\n' +
          'scorer, and .gitignore entries. Refuses to overwrite existing files without --force.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [target, ...extra] = parsed.positionals;
  if (extra.length > 0) throw new UsageError('USAGE_BAD_ARGUMENTS', `init takes one folder, got ${parsed.positionals.length}`);
  const dir = resolve(io.cwd, target ?? '.');
  const shown = relative(io.cwd, dir);
  const conversation = parsed.options.conversation === true;
  const result = await initProject(dir, { force: parsed.options.force === true, shownDir: shown, conversation });
  const lines = [`Created an AgentMark project in ${shown === '' ? 'the current folder' : shown}:`];
  for (const file of result.written) lines.push(`  ${file}`);
  if (result.ignored.length > 0) lines.push(`  .gitignore (added ${result.ignored.join(', ')})`);
  lines.push('', 'Next:');
  if (shown !== '') lines.push(`  cd ${shown.includes(' ') ? JSON.stringify(shown) : shown}`);
  lines.push(
    '  npx agentmark validate',
    `  npx agentmark score ${PROMPT_PATH} --outputs ${OUTPUTS_PATH}    # no key needed`,
    `  npx agentmark run-experiment ${PROMPT_PATH}    # put OPENAI_API_KEY=... in .env.local first`,
  );
  if (conversation) lines.push(`  npx agentmark run-experiment ${CHAT_PROMPT_PATH}    # a simulated customer chats with it`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}
