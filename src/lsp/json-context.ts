import type { CompletionItem, Position } from 'vscode-languageserver';
import { builtinScorers } from '../scoring/index.js';

/** The keys of the JSON objects enclosing an offset, and whether the cursor is writing a key. */
export interface JsonCursor {
  path: string[];
  onKey: boolean;
}

/**
 * Reads JSON text up to the cursor, keeping only the stack of enclosing object keys: enough to
 * know that the cursor is inside `scores.<name>.options`. Values are never built here (the
 * project loader reads agentmark.json); a half-typed file is fine.
 */
export function jsonCursor(text: string, offset: number): JsonCursor {
  const stack: Array<{ kind: 'object' | 'array'; key?: string }> = [];
  let lastString: string | undefined;
  let expectingKey = false;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= offset) return { path: keys(stack), onKey: expectingKey };
      lastString = text.slice(i + 1, end);
      i = end;
    } else if (c === ':') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && lastString !== undefined) top.key = lastString;
      expectingKey = false;
    } else if (c === '{' || c === '[') {
      stack.push({ kind: c === '{' ? 'object' : 'array' });
      expectingKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') delete top.key;
      expectingKey = false;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') {
        delete top.key;
        expectingKey = true;
      }
    }
  }
  return { path: keys(stack), onKey: expectingKey };
}

function keys(stack: Array<{ key?: string }>): string[] {
  return stack.flatMap((frame) => (frame.key === undefined ? [] : [frame.key]));
}

export function offsetAt(text: string, position: Position): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < position.line && i < lines.length; i++) offset += (lines[i] ?? '').length + 1;
  return offset + position.character;
}

/** In agentmark.json: a built-in's option names inside `scores.<name>.options`, built-in names for `scorer`. */
export function scorerOptionCompletions(text: string, position: Position, scorerOf: (name: string) => string | undefined = () => undefined): CompletionItem[] {
  const cursor = jsonCursor(text, offsetAt(text, position));
  const [first, name, field] = cursor.path;
  if (first !== 'scores' || name === undefined) return [];
  if (field === 'scorer' && !cursor.onKey) {
    return Object.values(builtinScorers).map((b) => ({ label: b.name, kind: 12, documentation: { kind: 'markdown', value: b.description } }));
  }
  if (field !== 'options' || !cursor.onKey || cursor.path.length !== 3) return [];
  const builtin = builtinScorers[scorerOf(name) ?? name];
  const properties = (builtin?.options.properties ?? {}) as Record<string, { type?: unknown; description?: unknown }>;
  return Object.entries(properties).map(([key, spec]) => ({
    label: key,
    kind: 5,
    ...(typeof spec.type === 'string' ? { detail: spec.type } : {}),
    ...(typeof spec.description === 'string' ? { documentation: { kind: 'markdown', value: spec.description } } : {}),
  }));
}
