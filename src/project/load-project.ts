import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError, ErrorList } from '../errors/index.js';
import { checkScores } from './check-scores.js';
import { findProjectRoot, PROJECT_FILE } from './find-project-root.js';
import { escapePointerSegment, scanJson, type PointerPosition } from './json-source-map.js';
import { outsideScope, projectScope } from './path-scope.js';
import { resolveReplayDir } from './replay-dir.js';
import type { SchemaViolation } from './schema-violation.js';
import type { Project, ProjectFile } from './types.js';
import { validateProjectFile } from './validate-project-file.js';
import { overlaidText } from '../source-overlay.js';

/**
 * Finds the project that holds `dir` (walking up to agentmark.json), reads and validates
 * agentmark.json, and reports every problem at once, each at its line:column.
 */
export async function loadProject(dir: string): Promise<Project> {
  const root = await findProjectRoot(dir);
  const configPath = path.join(root, PROJECT_FILE);
  const text = stripBom(overlaidText(configPath) ?? (await readFile(configPath, 'utf8')));
  const scan = scanJson(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = scan.ok ? {} : { line: scan.problem.line, column: scan.problem.column };
    const message = scan.ok ? (error as Error).message : scan.problem.message;
    throw new ConfigError('CONFIG_INVALID_JSON', `invalid JSON: ${message}`, {
      location: { file: configPath, ...where },
      hint: `${PROJECT_FILE} must be plain JSON: double-quoted keys, no comments, no trailing commas`,
    });
  }
  const pointers = scan.ok ? scan.pointers : new Map<string, PointerPosition>();

  const violations = await validateProjectFile(value);
  const file = value as ProjectFile;
  const scores = file.scores ?? {};
  const errors = violations.map((violation) => toConfigError({ ...violation, ...keyHint(violation.pointer) }, configPath, pointers));
  // Cross-field score rules only make sense once the shapes are known to be right.
  if (errors.length === 0) {
    errors.push(...checkScores(scores).map((problem) => toConfigError(problem, configPath, pointers, 'CONFIG_SCORE_INVALID')));
  }

  if (errors.length === 1 && errors[0]) throw errors[0];
  if (errors.length > 1) throw new ErrorList(errors, { location: { file: configPath } });

  // Only now is agentmarkPath known to be a string.
  const base = agentmarkBase(root, file.agentmarkPath);
  if (!(await isDirectory(base))) {
    throw toConfigError(
      { pointer: '/agentmarkPath', message: `/agentmarkPath "${file.agentmarkPath ?? '.'}" is not a folder (${base})`, problem: 'is not a folder' },
      configPath,
      pointers,
      'CONFIG_PROMPT_ROOT_NOT_FOUND',
    );
  }

  // AgentMark keeps prompts, components and datasets in an `agentmark/` folder under agentmarkPath.
  const agentmarkDir = path.join(base, 'agentmark');
  const promptRoot = (await isDirectory(agentmarkDir)) ? agentmarkDir : base;

  const replay = await resolveReplayDir(root, file.replayDir);
  if (replay.problem) {
    const hint = 'point replayDir at the committed folder of recorded answers (see README → Recorded answers), or remove the key';
    throw toConfigError(replay.problem, configPath, pointers, replay.problem.code, hint);
  }

  const project: Project = { root, configPath, file, promptRoot, scores, builtInModels: file.builtInModels ?? [] };
  if (replay.dir !== undefined) project.replayDir = replay.dir;
  if (file.allowedPaths !== undefined) project.allowedPaths = file.allowedPaths.map((folder) => path.resolve(root, folder));
  const outside = judgePromptsOutside(project);
  if (outside.length === 1 && outside[0]) throw toConfigError(outside[0], configPath, pointers, 'CONFIG_PATH_OUTSIDE_PROJECT');
  if (outside.length > 1) throw new ErrorList(outside.map((o) => toConfigError(o, configPath, pointers, 'CONFIG_PATH_OUTSIDE_PROJECT')), { location: { file: configPath } });
  return project;
}

/** A judge's own prompt (`scores.<name>.options.prompt`) is a file the project reads: it must stay inside. */
function judgePromptsOutside(project: Project): Array<SchemaViolation & { hint: string }> {
  const scope = projectScope(project);
  const problems: Array<SchemaViolation & { hint: string }> = [];
  for (const [name, schema] of Object.entries(project.scores)) {
    const prompt = schema.options?.['prompt'];
    if (typeof prompt !== 'string') continue;
    const outside = outsideScope(scope, path.resolve(project.root, prompt), prompt);
    const pointer = `/scores/${escapePointerSegment(name)}/options/prompt`;
    if (outside) problems.push({ pointer, message: `${pointer} ${outside.message}`, problem: outside.message, hint: outside.hint });
  }
  return problems;
}

/** Keys whose wrong value has a more useful hint than the schema's path. */
const KEY_HINTS: Readonly<Record<string, string>> = {
  '/cache': '"store" shares the response cache through the team store (it needs "store" or AGENTMARK_STORE_URL); "local" (the default) keeps it in .agentmark/cache/',
};
const keyHint = (pointer: string): { hint?: string } => (KEY_HINTS[pointer] === undefined ? {} : { hint: KEY_HINTS[pointer] });

function toConfigError(
  violation: SchemaViolation & { hint?: string },
  file: string,
  pointers: Map<string, PointerPosition>,
  code: `CONFIG_${string}` = 'CONFIG_SCHEMA',
  hint = code === 'CONFIG_SCHEMA' ? `see schema/agentmark.schema.json for the allowed keys and types` : undefined,
): ConfigError {
  const position = positionOf(violation.pointer, pointers);
  return new ConfigError(code, violation.message, {
    location: { file, ...(position ? { line: position.line, column: position.column } : {}) },
    hint: violation.hint ?? hint,
  });
}

/** The value's own position, or its nearest ancestor's when the value itself is absent. */
function positionOf(pointer: string, pointers: Map<string, PointerPosition>) {
  let current = pointer;
  for (;;) {
    const found = pointers.get(current);
    if (found) return found.value;
    if (current === '') return undefined;
    current = current.slice(0, current.lastIndexOf('/'));
  }
}

/**
 * The folder agentmarkPath names. AgentMark's older docs and scaffolds wrote `"/"` (and
 * `"/packages/ai"`) for the project root (and a folder in it): a leading slash is read as
 * relative to the project, never as the filesystem root.
 */
function agentmarkBase(root: string, agentmarkPath: string | undefined): string {
  return path.resolve(root, (agentmarkPath ?? '.').replace(/^[/\\]+/, '') || '.');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
