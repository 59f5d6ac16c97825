import { ConfigError } from '../errors/index.js';
import { projectJiti } from '../project/project-jiti.js';

/** What jiti's transform returns in place of code when the source does not parse. */
const JITI_ERROR = /^exports\.__JITI_ERROR__ = (\{.*\})\s*$/s;

/**
 * The syntax errors of the config's unsaved text, as `validate` reports them of the saved file
 * (code CONFIG_SYNTAX, `syntax error: …`, line:col): parsed by the very transform the loader
 * evaluates the file with (jiti's Babel), so the two agree. Only parsed, never evaluated: see
 * docs/editors.md ("The config") for why the server does not run unsaved config code.
 */
export function configSyntaxErrors(file: string, root: string, text: string): ConfigError[] {
  const jiti = projectJiti(file, root, false);
  const code = jiti.transform({ source: text, filename: file, ts: /\.[cm]?ts$/.test(file) });
  const failed = JITI_ERROR.exec(code);
  if (!failed?.[1]) return [];
  let error: { line?: unknown; column?: unknown; message?: unknown };
  try {
    error = JSON.parse(failed[1]) as typeof error;
  } catch {
    return [];
  }
  const message = typeof error.message === 'string' ? error.message.trim() : 'the file does not parse';
  const line = typeof error.line === 'number' ? error.line : undefined;
  // Babel's columns count from 0; editors and validate count from 1.
  const column = typeof error.column === 'number' ? error.column + 1 : undefined;
  return [new ConfigError('CONFIG_SYNTAX', `syntax error: ${message}`, { location: { file, ...(line === undefined ? {} : { line, column: column ?? 1 }) } })];
}
