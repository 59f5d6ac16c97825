import type { CompletionItem, Position } from 'vscode-languageserver';
import { jsonCursor } from './json-context.js';

/**
 * In a dataset `.jsonl`: inside a row's own `evals` list (a name, or the `name` of an
 * `{ name, options, weight }` entry), the eval names that list binds, `items` being the same
 * entries `test_settings.evals` offers. Each row is one line, so only the cursor's line is read.
 */
export function rowEvalCompletions(text: string, position: Position, items: () => CompletionItem[]): CompletionItem[] {
  const lineText = (text.split('\n')[position.line] ?? '').slice(0, position.character);
  const cursor = jsonCursor(lineText, lineText.length);
  const inRowEvals = !cursor.onKey && ((cursor.path.length === 1 && cursor.path[0] === 'evals') || (cursor.path.length === 2 && cursor.path[0] === 'evals' && cursor.path[1] === 'name'));
  if (!inRowEvals) return [];
  // Outside a string the name is inserted quoted, as JSON needs it.
  const quoted = !insideString(lineText);
  return items().map((item) => (quoted ? { ...item, insertText: JSON.stringify(item.label) } : item));
}

function insideString(before: string): boolean {
  let inside = false;
  for (let i = 0; i < before.length; i++) {
    if (before[i] === '\\' && inside) i++;
    else if (before[i] === '"') inside = !inside;
  }
  return inside;
}
