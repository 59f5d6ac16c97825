import type { RenameParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { fileKind } from './file-kind.js';
import { jsonCursor, offsetAt } from './json-context.js';
import { pathToUri, uriToPath } from './open-documents.js';
import { frontmatterOf } from './prompt-facts.js';
import { promptTarget } from './prompt-target.js';
import type { ServerContext } from './server-context.js';
import { registrationRanges } from './config-registrations.js';
import { scoreKeyRange, textOf } from './source-positions.js';
import { wordAt } from './token-range.js';

/** The score name under the cursor: an eval of a prompt, or a key of `scores` in agentmark.json. */
async function scoreNameAt(context: ServerContext, params: RenameParams): Promise<string | undefined> {
  const path = uriToPath(params.textDocument.uri);
  const text = context.documents.text(path);
  if (text === undefined) return undefined;
  if (fileKind(path) === 'prompt') {
    const target = promptTarget(text, params.position);
    return target?.kind === 'eval' ? target.name : undefined;
  }
  if (fileKind(path) !== 'project') return undefined;
  const cursor = jsonCursor(text, offsetAt(text, params.position));
  if (cursor.path.length !== 1 || cursor.path[0] !== 'scores' || !cursor.onKey) return undefined;
  return wordAt(text, params.position.line, params.position.character)?.word;
}

/** Renames a score everywhere it is named: agentmark.json, every prompt's evals, turn_evals and thresholds, the config's scorers. */
export async function rename(context: ServerContext, params: RenameParams): Promise<WorkspaceEdit | null> {
  await context.ready();
  const { project, config } = context.state;
  const name = await scoreNameAt(context, params);
  if (!project || name === undefined) return null;
  const changes: Record<string, TextEdit[]> = {};
  const add = (path: string, edits: TextEdit[]) => {
    if (edits.length > 0) (changes[pathToUri(path)] ??= []).push(...edits);
  };
  const projectText = await textOf(context.documents, project.configPath);
  const key = projectText === undefined ? undefined : scoreKeyRange(projectText, name);
  if (key) add(project.configPath, [{ range: key, newText: params.newName }]);
  const prompts = new Set([...context.state.prompts.keys(), ...context.documents.paths().filter((p) => fileKind(p) === 'prompt')]);
  for (const path of prompts) {
    const text = await textOf(context.documents, path);
    const parsed = text === undefined ? undefined : await frontmatterOf(path, text);
    const settings = parsed?.data['test_settings'] as Record<string, unknown> | undefined;
    if (!parsed || !settings) continue;
    const edits: TextEdit[] = [];
    const at = (position: { line: number; column: number } | undefined) => {
      if (position) edits.push({ range: { start: { line: position.line - 1, character: position.column - 1 }, end: { line: position.line - 1, character: position.column - 1 + name.length } }, newText: params.newName });
    };
    for (const list of ['evals', 'turn_evals']) {
      const names = settings[list];
      if (Array.isArray(names)) names.forEach((value, index) => value === name && at(parsed.positionOf(['test_settings', list, index])));
    }
    const thresholds = settings['score_thresholds'];
    if (thresholds !== null && typeof thresholds === 'object' && Object.hasOwn(thresholds, name)) at(parsed.positionOf(['test_settings', 'score_thresholds', name]));
    add(path, edits);
  }
  if (config?.path && config.scorers?.[name] !== undefined) {
    const configText = await textOf(context.documents, config.path);
    if (configText !== undefined) add(config.path, registrationRanges(configText, name).map((range) => ({ range, newText: params.newName })));
  }
  return { changes };
}
