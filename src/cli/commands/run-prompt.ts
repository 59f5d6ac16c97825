import { resolve } from 'node:path';
import { runPromptOnce } from '../../experiment/run-once.js';
import { loadConfig } from '../../project/index.js';
import { UsageError } from '../../errors/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';
import { propsFromFlags } from '../props-input.js';
import { runOptions } from '../run-options.js';
import { propsOptions } from './render.js';

const options = {
  ...commonOptions,
  ...propsOptions,
  model: { type: 'string', value: '<provider/model>', description: "Override the prompt's model_name" },
  timeout: runOptions.timeout,
  'max-retries': runOptions['max-retries'],
  cache: { type: 'boolean', default: true, description: 'Use the response cache (--no-cache calls the model)' },
  'cache-only': { type: 'boolean', description: 'Never call a model: answer from the response cache (or the replay folder), else fail' },
  json: { type: 'boolean', description: 'Print the whole response (output, tool calls, usage, latency) as JSON' },
} satisfies OptionTable;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(argv, options, 'run-prompt');
  if (parsed.options.help) {
    io.stdout.write(
      renderHelp({
        usage: 'agentmark run-prompt <prompt> [--props <json> | --props-file <file> | --row <n>] [options]',
        summary: 'Runs one prompt once and prints its output: text, or the object as JSON, then any tool calls.',
        options,
      }),
    );
    return ExitCode.ok;
  }
  const [path, ...extra] = parsed.positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError('USAGE_MISSING_PROMPT', 'run-prompt takes exactly one prompt file');
  }
  if (parsed.options['cache-only'] && parsed.options.cache === false) {
    throw new UsageError('USAGE_CONFLICT', '--cache-only and --no-cache cannot be used together');
  }
  const project = await openProject(parsed.options.project, io.cwd, path);
  const config = await loadConfig(project, { fsCache: true });
  let response: Awaited<ReturnType<typeof runPromptOnce>>;
  try {
    response = await runPromptOnce(
      {
        project,
        config,
        promptPath: resolve(io.cwd, path),
        cacheMode: parsed.options['cache-only'] ? 'only' : parsed.options.cache === false ? 'off' : 'use',
        timeoutMs: Math.round((parsed.options.timeout ?? 60) * 1000),
        signal: io.signal,
        env: io.env,
        ...(parsed.options.model === undefined ? {} : { model: parsed.options.model }),
        ...(parsed.options['max-retries'] === undefined ? {} : { maxRetries: parsed.options['max-retries'] }),
      },
      (prompt) => propsFromFlags(parsed.options, prompt, project, io.cwd),
    );
  } catch (error) {
    // Ctrl-C cancels the call; that is an interruption, not a failed call.
    if (!io.signal.aborted) throw error;
    io.stderr.write('interrupted\n');
    return ExitCode.interrupted;
  }
  if (parsed.options.json) {
    io.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
    return ExitCode.ok;
  }
  const output = typeof response.output === 'string' ? response.output : JSON.stringify(response.output, null, 2);
  io.stdout.write(`${output}\n`);
  for (const call of response.toolCalls) {
    const result = call.error !== undefined ? `error: ${call.error}` : JSON.stringify(call.result);
    io.stdout.write(`tool ${call.name}(${JSON.stringify(call.args)}) -> ${result}\n`);
  }
  return ExitCode.ok;
}
