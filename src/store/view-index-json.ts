import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { VIEW_INDEX_DIR, VIEW_INDEX_META, VIEW_INDEX_VERSION, columnFiles, type ViewIndexMeta } from './view-index-format.js';
import type { ViewIndexExpectation } from './view-index-reader.js';

/**
 * A run's view index as the JSON text of its RowIndex (what the viewer's index route sends), made
 * from the column files' text without parsing their values: each file is its values followed by
 * commas, so `[` + the file without its last comma + `]` is the column. Parsing a million rows'
 * columns and writing them as JSON again costs seconds (`runs push` sends this to the store).
 * The checks are readViewIndex's: undefined when the index cannot be trusted for the expectation.
 * A column of numbers holds no comma but its separators, so counting them counts its values;
 * label columns (strings) are parsed to count theirs.
 */
export async function readViewIndexJson(runDir: string, expect: ViewIndexExpectation): Promise<string | undefined> {
  const dir = join(runDir, VIEW_INDEX_DIR);
  try {
    const meta = JSON.parse(await readFile(join(dir, VIEW_INDEX_META), 'utf8')) as ViewIndexMeta;
    if (meta.version !== VIEW_INDEX_VERSION || !Array.isArray(meta.evalNames) || typeof meta.rows !== 'number') return undefined;
    if ((await stat(expect.resultsPath)).size < meta.results.bytes) return undefined;
    if (expect.integrity !== undefined && (expect.integrity.rows !== meta.results.rows || expect.integrity.sha256 !== meta.results.sha256)) return undefined;
    const n = meta.evalNames.length;
    if (expect.evalNames !== undefined && (expect.evalNames.length !== n || expect.evalNames.some((name, k) => meta.evalNames[k] !== name))) return undefined;
    const labelled = new Set(meta.labelled);
    const names = columnFiles(n);
    const texts = await Promise.all(names.map((name, c) => (c < 2 || (c >= 8 + n && !labelled.has(c - 8 - n)) ? Promise.resolve('') : readFile(join(dir, name), 'utf8'))));
    const rows = meta.rows;
    const column = (c: number): string | undefined => {
      const text = texts[c] as string;
      if (c >= 8 + n) {
        if (text === '') return '[]';
        const values = JSON.parse(`[${text.slice(0, -1)}]`) as unknown[];
        return text.endsWith(',') && values.length === rows ? `[${text.slice(0, -1)}]` : undefined;
      }
      if (rows === 0) return text === '' ? '[]' : undefined;
      return text.endsWith(',') && commas(text) === rows ? `[${text.slice(0, -1)}]` : undefined;
    };
    const parts = [2, 3, 4, 5, 6, ...Array.from({ length: 2 * n }, (_, k) => 8 + k)].map((c) => [c, column(c)] as const);
    if (parts.some(([, text]) => text === undefined) || (texts[7] as string).length !== rows * n) return undefined;
    const part = new Map(parts);
    const list = (from: number): string => `[${Array.from({ length: n }, (_, k) => part.get(from + k)).join(',')}]`;
    return `{"evalNames":${JSON.stringify(meta.evalNames)},"index":${part.get(2)},"repeat":${part.get(3)},"flags":${part.get(4)},"latencyMs":${part.get(5)},"costUsd":${part.get(6)},"verdicts":${JSON.stringify(texts[7])},"scores":${list(8)},"labels":${list(8 + n)}}`;
  } catch {
    return undefined;
  }
}

function commas(text: string): number {
  let count = 0;
  for (let at = text.indexOf(','); at !== -1; at = text.indexOf(',', at + 1)) count += 1;
  return count;
}
