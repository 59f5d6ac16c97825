import type { SourceLocation } from '../errors/index.js';
import { scanJson } from '../project/json-source-map.js';
import { readLines } from './read-lines.js';

/**
 * Where the value at `pointer` (a JSON Pointer, or its nearest present ancestor) sits on line
 * `line` of the dataset at `path` (named `file` in the location). Only called on an error path, so the line is read again rather than
 * every row's text being kept for the case it is needed.
 */
export async function locateRowField(path: string, file: string, line: number, pointer: string): Promise<SourceLocation> {
  for await (const raw of readLines(path)) {
    if (raw.line < line) continue;
    const scan = scanJson(raw.bytes.toString('utf8'));
    if (!scan.ok) break;
    for (let at = pointer; ; at = at.slice(0, at.lastIndexOf('/'))) {
      const found = scan.pointers.get(at);
      if (found) return { file, line, column: found.value.column };
      if (at === '') break;
    }
    break;
  }
  return { file, line };
}
