import { readFile } from 'node:fs/promises';
import { overlaidText } from '../source-overlay.js';
import type { SourceLocation } from '../errors/index.js';
import { escapePointerSegment, scanJson } from '../project/json-source-map.js';

/**
 * Where `scores.<evalName>.options.<key>` sits in agentmark.json (its nearest present ancestor
 * when the key itself is absent). Only called on an error path: reading and scanning the file
 * again costs nothing on runs whose options are fine.
 */
export function locateOption(projectFile: string, evalName: string, key: string): Promise<SourceLocation> {
  return locateScoreField(projectFile, evalName, 'options', key);
}

/** Where `scores.<evalName>.<path…>` sits in agentmark.json (its nearest present ancestor when absent). */
export async function locateScoreField(projectFile: string, evalName: string, ...path: string[]): Promise<SourceLocation> {
  let text: string;
  try {
    text = overlaidText(projectFile) ?? (await readFile(projectFile, 'utf8'));
  } catch {
    return { file: projectFile };
  }
  const scan = scanJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!scan.ok) return { file: projectFile };
  let pointer = ['', 'scores', evalName, ...path].map(escapePointerSegment).join('/');
  for (;;) {
    const found = scan.pointers.get(pointer);
    if (found) return { file: projectFile, line: found.value.line, column: found.value.column };
    if (pointer === '') return { file: projectFile };
    pointer = pointer.slice(0, pointer.lastIndexOf('/'));
  }
}
