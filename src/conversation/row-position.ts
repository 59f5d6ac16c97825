import { closeSync, openSync, readSync } from 'node:fs';
import { scanJson } from '../project/json-source-map.js';

/** Bytes read at a time while looking for a line. */
const CHUNK = 64 * 1024;

/**
 * Where a value of a dataset line is (its key for an object member), by JSON Pointer, e.g.
 * `/messages/2/role`. Only called for a bad row, so it may read the file again up to that line;
 * undefined when the line or pointer cannot be found (the error then names the line only).
 */
export function positionInRow(file: string, line: number, pointer: string): number | undefined {
  const text = readLine(file, line);
  if (text === undefined) return undefined;
  const scan = scanJson(text);
  if (!scan.ok) return undefined;
  const found = scan.pointers.get(pointer);
  return (found?.key ?? found?.value)?.column;
}

/** The 1-based `line` of a file, decoded as UTF-8, read in chunks (a dataset can be large). */
function readLine(file: string, line: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(CHUNK);
    const parts: Buffer[] = [];
    let current = 1;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      let start = 0;
      for (let at = buffer.indexOf(10, start); at !== -1 && at < read; at = buffer.indexOf(10, start)) {
        if (current === line) {
          parts.push(Buffer.from(buffer.subarray(start, at)));
          return Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
        }
        current += 1;
        start = at + 1;
      }
      if (current === line) parts.push(Buffer.from(buffer.subarray(start, read)));
    }
    return current === line ? Buffer.concat(parts).toString('utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}
