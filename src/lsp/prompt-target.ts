import type { Position, Range } from 'vscode-languageserver';
import { wordAt } from './token-range.js';
import { cursorContext, isModelKey } from './yaml-context.js';

/** What the cursor is on in a prompt file, for hover, definition and rename. */
export type PromptTarget =
  | { kind: 'dataset'; value: string; range: Range }
  | { kind: 'eval'; name: string; range: Range }
  | { kind: 'model'; id: string; range: Range }
  | { kind: 'prop'; name: string; range: Range }
  | { kind: 'import'; request: string; range: Range }
  | { kind: 'agent'; name: string; range: Range };

export function promptTarget(text: string, position: Position): PromptTarget | undefined {
  const { line, character } = position;
  const lineText = text.split('\n')[line] ?? '';
  const importLine = /^(\s*import\s+\w+\s+from\s+)(['"])([^'"]+)\2/.exec(lineText);
  if (importLine) {
    const start = (importLine[1] ?? '').length + 1;
    const request = importLine[3] ?? '';
    return { kind: 'import', request, range: { start: { line, character: start }, end: { line, character: start + request.length } } };
  }
  const word = wordAt(text, line, character);
  if (!word) return undefined;
  const cursor = cursorContext(text, line, character);
  if (cursor.where === 'body') {
    const prop = /^props\.(\w+)/.exec(word.word);
    return prop?.[1] === undefined ? undefined : { kind: 'prop', name: prop[1], range: word.range };
  }
  if (cursor.onKey) return undefined;
  const key = cursor.path[cursor.path.length - 1];
  if (key === 'dataset') return { kind: 'dataset', value: word.word, range: word.range };
  if (key === 'evals' || key === 'turn_evals') return { kind: 'eval', name: word.word, range: word.range };
  if (isModelKey(cursor.path)) return { kind: 'model', id: word.word, range: word.range };
  if (key === 'agent') return { kind: 'agent', name: word.word, range: word.range };
  return undefined;
}
