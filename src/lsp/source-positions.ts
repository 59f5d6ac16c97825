import { readFile } from 'node:fs/promises';
import type { Range } from 'vscode-languageserver';
import { escapePointerSegment, scanJson } from '../project/json-source-map.js';
import type { OpenDocuments } from './open-documents.js';

/** A file's text: the open buffer, else the disk, else nothing. */
export async function textOf(documents: OpenDocuments, path: string): Promise<string | undefined> {
  return documents.text(path) ?? (await readFile(path, 'utf8').catch(() => undefined));
}

const point = (line: number, character: number): Range => ({ start: { line, character }, end: { line, character } });

/** Where `scores.<name>` (its key) sits in agentmark.json text, via the loader's JSON source map. */
export function scoreKeyRange(text: string, name: string): Range | undefined {
  const scan = scanJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!scan.ok) return undefined;
  const found = scan.pointers.get(`/scores/${escapePointerSegment(name)}`);
  const at = found?.key ?? found?.value;
  if (!at) return undefined;
  // The key's position is its opening quote; the range covers the name inside the quotes.
  return { start: { line: at.line - 1, character: at.column }, end: { line: at.line - 1, character: at.column + name.length } };
}

/** Where a value at a JSON Pointer starts in agentmark.json text. */
export function jsonValueRange(text: string, pointer: string): Range | undefined {
  const scan = scanJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const at = scan.ok ? scan.pointers.get(pointer)?.value : undefined;
  return at ? point(at.line - 1, at.column - 1) : undefined;
}
