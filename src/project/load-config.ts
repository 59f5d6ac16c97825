import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError, ErrorList, type SourceLocation } from '../errors/index.js';
import { collectLocalImports } from './config-imports.js';
import type { LoadedConfig } from './config-types.js';
import type { Project } from './types.js';
import { validateConfig } from './validate-config.js';
import { withClientScorers } from './client-scorers.js';
import { projectJiti } from './project-jiti.js';
import { importFresh } from './import-fresh.js';

/** Looked for in this order; the first present wins. */
export const CONFIG_FILES = ['agentmark.config.ts', 'agentmark.config.mts', 'agentmark.config.js', 'agentmark.config.mjs'];

/** The project's config file, or undefined when it has none (a config is optional). */
export async function findConfigFile(root: string): Promise<string | undefined> {
  for (const name of CONFIG_FILES) {
    const file = path.join(root, name);
    try {
      if ((await stat(file)).isFile()) return file;
    } catch {
      // absent: try the next name
    }
  }
  return undefined;
}

export interface LoadConfigOptions {
  /**
   * Keep jiti's transform of the config and of the local files it imports on disk, in the
   * project's `.agentmark/config-cache/`, keyed by each file's exact text (so an edit is never
   * missed; the module itself is still evaluated afresh). The transform is most of a TS config's
   * load time (~0.4 s measured). See cachedTransform. The CLI's commands and the scorer
   * workers set it; the library's default writes nothing into the project.
   * @default false
   */
  fsCache?: boolean;
  /**
   * Also register the eval functions of the project's AgentMark client (`agentmark.client.*`),
   * as if they were in `scorers`; the config's own scorer wins on a name in both. Commands
   * that bind evals set it; the others (render, run-prompt) need no scorers and skip the load.
   * @default false
   */
  client?: boolean;
}

/**
 * Loads `agentmark.config.*` from the project root, TypeScript included, without a build step.
 * Every call evaluates the file afresh (no module cache; only the transform is cached, by
 * content) so watch mode sees edits to the config and to the modules it imports.
 */
export async function loadConfig(project: Pick<Project, 'root'>, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const config = await loadConfigFile(project.root, options);
  return options.client ? withClientScorers(config, project.root, options) : config;
}

async function loadConfigFile(root: string, options: LoadConfigOptions): Promise<LoadedConfig> {
  const file = await findConfigFile(root);
  if (!file) return { path: undefined, files: [] };

  const files = await collectLocalImports(file, root);
  const jiti = projectJiti(file, root, options.fsCache ?? false);
  let mod: unknown;
  try {
    mod = await importFresh(jiti, file);
  } catch (error) {
    throw configLoadError(error, file, files);
  }

  const exported = pickExport(mod);
  if (exported === undefined) {
    throw new ConfigError('CONFIG_NO_EXPORT', 'the config has no default export (nor a named `config` export)', {
      location: { file },
      hint: "end the file with `export default defineConfig({ ... })`",
    });
  }
  const { config, errors } = validateConfig(exported, file);
  if (errors.length === 1 && errors[0]) throw errors[0];
  if (errors.length > 1) throw new ErrorList(errors, { location: { file } });
  return { ...config, path: file, files };
}

function pickExport(mod: unknown): unknown {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const record = mod as Record<string, unknown>;
  return record['default'] ?? record['config'];
}

/**
 * A syntax or runtime error while evaluating the config, as one message naming the file
 * (and line:column when jiti's message or the stack points into a project file). The stack
 * is dropped on purpose: it is jiti's internals, not the user's code.
 */
function configLoadError(error: unknown, configFile: string, projectFiles: readonly string[]): ConfigError {
  const raw = error instanceof Error ? error.message : String(error);
  // jiti reports transform (syntax) errors as "ParseError: <message>\n <file>:<line>:<col>".
  const syntax = /^(?:ParseError|SyntaxError): ([\s\S]*?)\s*\n\s*(\S+?):(\d+):(\d+)\s*$/.exec(raw);
  if (syntax?.[1] !== undefined && syntax[2] && syntax[3] && syntax[4]) {
    return new ConfigError('CONFIG_SYNTAX', `syntax error: ${syntax[1].trim()}`, {
      // jiti passes on Babel's 0-based column; editors and V8 stacks count from 1.
      location: { file: syntax[2], line: Number(syntax[3]), column: Number(syntax[4]) + 1 },
      hint: syntax[2] === configFile ? undefined : `imported by ${configFile}`,
    });
  }
  const location = stackLocation(error, [configFile, ...projectFiles]) ?? { file: configFile };
  const message = error instanceof Error && error.name !== 'Error' ? `${error.name}: ${raw}` : raw;
  return new ConfigError('CONFIG_LOAD_FAILED', `loading the config failed: ${message}`, {
    location,
    hint: location.file === configFile ? undefined : `imported by ${configFile}`,
  });
}

/** The first stack frame that points into one of the project's own config files. */
function stackLocation(error: unknown, files: readonly string[]): SourceLocation | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const match of stack.matchAll(/(?:\(|at )((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?$/gm)) {
    const file = match[1]?.replace(/^file:\/\//, '');
    if (file && files.includes(file)) return { file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}
