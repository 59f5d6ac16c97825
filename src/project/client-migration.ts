import * as path from 'node:path';
import type { ProjectFile } from './types.js';

/** agentmark.json keys AgentMark reads and this tool accepts without using. */
const IGNORED_KEYS = ['handler', 'modelSchemas', 'mcpServers', 'evals'] as const;

/** A JS identifier can be written as `evals.name`; anything else needs quotes. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The text of an `agentmark.config.ts` that registers, as scorers, the eval functions of the
 * client in `clientFile` by importing it: the client stays the one place they are defined.
 * `exportName` is how the client is exported (`client`, or `default`). No import from this
 * package, so the file loads in a project where it is not installed locally.
 */
export function migratedConfig(clientFile: string, exportName: 'client' | 'default', names: readonly string[]): string {
  const specifier = `./${path.basename(clientFile).replace(/\.(m?ts)$/, '')}`;
  const importLine = exportName === 'client' ? `import { client } from '${specifier}';` : `import client from '${specifier}';`;
  const entries = [...names].sort().map((name) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `    ${key}: evalFunction(${JSON.stringify(name)}),`;
  });
  return [
    `// Written by \`agentmark migrate\`: the eval functions registered on ${path.basename(clientFile)},`,
    '// registered here as scorers. The client is read through this file from now on (it is no longer',
    '// loaded on its own); a scorer added here replaces the built-in of the same name.',
    '// For types, wrap the object in `defineConfig` from agentmark-eval.',
    importLine,
    '',
    '// AgentMark has returned its registry as a plain object, a Map, or an object read with get(name).',
    'const registry: any = client.getEvalRegistry();',
    'const evalFunction = (name: string) =>',
    "  registry instanceof Map || (typeof registry?.get === 'function' && Object.getPrototypeOf(registry) !== Object.prototype)",
    '    ? registry.get(name)',
    '    : registry?.[name];',
    '',
    'export default {',
    '  scorers: {',
    ...entries,
    '  },',
    '};',
    '',
  ].join('\n');
}

/**
 * What this tool reads differently from AgentMark, for someone switching a project over: the
 * general points, then what this project's agentmark.json holds that is read differently.
 */
export function migrationNotes(file: ProjectFile): string[] {
  const notes = [
    'run-experiment calls the models itself (keys from the environment, e.g. OPENAI_API_KEY): no `agentmark dev` server; --server and AGENTMARK_WEBHOOK_URL are not used.',
    "The client's loader, model registry and tools are not used: model_name picks the provider (`providers` in agentmark.config.ts adds others) and `tools` in agentmark.config.ts provides tool code.",
    '--sample N runs a random N% of the rows (1-100), as in AgentMark; --limit N runs the first N rows and --sample-rows N a random N rows; --rows, --split, --seed, --threshold, --format and --skip-eval mean what they mean in AgentMark.',
    'An eval name with no scorer is an error before any model call (AgentMark skips it), and results are checked against their score schema in agentmark.json.',
    'Responses are cached under .agentmark/cache and every run is kept under .agentmark/runs/ (add .agentmark/ to .gitignore).',
  ];
  const ignored = IGNORED_KEYS.filter((key) => file[key] !== undefined);
  if (ignored.length > 0) notes.push(`agentmark.json: ${ignored.map((key) => `\`${key}\``).join(', ')} ${ignored.length === 1 ? 'is' : 'are'} accepted and not used.`);
  if (typeof file.agentmarkPath === 'string' && /^[/\\]/.test(file.agentmarkPath)) {
    notes.push(`agentmark.json: agentmarkPath "${file.agentmarkPath}" is read relative to the project root (the leading slash is not the filesystem root).`);
  }
  if (file.mdxVersion === '0.0') notes.push('agentmark.json: mdxVersion "0.0" (the legacy template dialect) is not supported: prompts are read as mdxVersion "1.0".');
  return notes;
}
