import { commands } from './commands.js';

/**
 * `agentmark --help`: the commands and their summaries. The package's bin (dist/bundle/agentmark.cjs)
 * prints this text as it was at build time, without loading the CLI (see scripts/bin-shim.cjs).
 */
export function globalHelp(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((name) => name.length));
  const lines = [
    'Usage: agentmark <command> [options]',
    '',
    'Evaluate AgentMark .prompt.mdx prompts against their datasets.',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${commands[name]?.summary ?? ''}`),
    '',
    'Options:',
    '  -h, --help     Show help (also `agentmark <command> --help`)',
    '  -v, --version  Print the version',
    '',
    'Exit codes: 0 success, 1 a gate failed, 2 usage or input error, 130 interrupted.',
  ];
  return `${lines.join('\n')}\n`;
}
