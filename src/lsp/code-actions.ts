import type { CodeAction, CodeActionParams, Diagnostic, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { pathToUri, uriToPath } from './open-documents.js';
import { frontmatterOf } from './prompt-facts.js';
import type { ServerContext } from './server-context.js';
import { jsonValueRange, textOf } from './source-positions.js';
import type { DiagnosticData } from './to-diagnostic.js';

/**
 * Quick fixes: every did-you-mean a diagnostic carries; an eval with no scorer declared as a score
 * in agentmark.json; an undeclared prop added to input_schema.
 */
export async function codeActions(context: ServerContext, params: CodeActionParams): Promise<CodeAction[]> {
  await context.ready();
  const uri = params.textDocument.uri;
  const path = uriToPath(uri);
  const actions: CodeAction[] = [];
  for (const diagnostic of params.context.diagnostics) {
    const data = (diagnostic.data ?? {}) as DiagnosticData;
    if (data.didYouMean !== undefined) {
      actions.push({
        title: `Change to "${data.didYouMean}"`,
        kind: 'quickfix',
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [uri]: [{ range: diagnostic.range, newText: data.didYouMean }] } },
      });
    }
    if (diagnostic.code === 'EVAL_NOT_FOUND') {
      const declare = await declareScore(context, diagnostic);
      if (declare) actions.push(declare);
    }
    if (diagnostic.code === 'TEMPLATE_UNDECLARED_PROP') {
      const add = await addProp(context, path, diagnostic);
      if (add) actions.push(add);
    }
  }
  return actions;
}

function nameIn(diagnostic: Diagnostic, pattern: RegExp): string | undefined {
  return typeof diagnostic.message === 'string' ? pattern.exec(diagnostic.message)?.[1] : undefined;
}

/** `"name": { "type": "boolean", "description": "" }` as the first entry of `scores` (the key added when absent). */
async function declareScore(context: ServerContext, diagnostic: Diagnostic): Promise<CodeAction | undefined> {
  const project = context.state.project;
  const name = nameIn(diagnostic, /^eval "([^"]+)"/);
  if (!project || name === undefined) return undefined;
  const text = await textOf(context.documents, project.configPath);
  if (text === undefined) return undefined;
  const entry = `"${name}": { "type": "boolean", "description": "" }`;
  const scores = jsonValueRange(text, '/scores');
  const root = jsonValueRange(text, '');
  let edit: TextEdit;
  if (scores) {
    const empty = /^\{\s*\}/.test(text.split('\n')[scores.start.line]?.slice(scores.start.character) ?? '');
    edit = { range: { start: { line: scores.start.line, character: scores.start.character + 1 }, end: { line: scores.start.line, character: scores.start.character + 1 } }, newText: `\n    ${entry}${empty ? '\n  ' : ','}` };
  } else if (root) {
    edit = { range: { start: { line: root.start.line, character: root.start.character + 1 }, end: { line: root.start.line, character: root.start.character + 1 } }, newText: `\n  "scores": {\n    ${entry}\n  },` };
  } else return undefined;
  const change: WorkspaceEdit = { changes: { [pathToUri(project.configPath)]: [edit] } };
  return { title: `Declare the score "${name}" in agentmark.json`, kind: 'quickfix', diagnostics: [diagnostic], edit: change };
}

/** `name: { type: string }` under input_schema.properties (block style), after its last entry. */
async function addProp(context: ServerContext, path: string, diagnostic: Diagnostic): Promise<CodeAction | undefined> {
  const name = nameIn(diagnostic, /^props\.(\w+) is not declared/);
  const text = context.documents.text(path);
  if (name === undefined || text === undefined) return undefined;
  const parsed = await frontmatterOf(path, text);
  const at = parsed?.positionOf(['input_schema', 'properties']);
  const lines = text.split('\n');
  let edit: TextEdit;
  if (at) {
    const keyLine = at.line - 1;
    const indent = (lines[keyLine]?.length ?? 0) - (lines[keyLine]?.trimStart().length ?? 0) + 2;
    if (!/:\s*$/.test(lines[keyLine] ?? '')) return undefined; // flow style: left to the author
    let last = keyLine;
    for (let i = keyLine + 1; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (line.trim() === '') continue;
      if (line.length - line.trimStart().length < indent) break;
      last = i;
    }
    edit = { range: { start: { line: last + 1, character: 0 }, end: { line: last + 1, character: 0 } }, newText: `${' '.repeat(indent)}${name}: { type: string }\n` };
  } else {
    const schema = parsed?.positionOf(['input_schema']);
    if (schema || !parsed) return undefined;
    // No input_schema: one with this prop, before the closing ---.
    const end = lines.findIndex((line, i) => i > 0 && /^---\s*$/.test(line));
    if (end === -1) return undefined;
    edit = { range: { start: { line: end, character: 0 }, end: { line: end, character: 0 } }, newText: `input_schema:\n  type: object\n  properties:\n    ${name}: { type: string }\n` };
  }
  return { title: `Add "${name}" to input_schema`, kind: 'quickfix', diagnostics: [diagnostic], edit: { changes: { [pathToUri(path)]: [edit] } } };
}
