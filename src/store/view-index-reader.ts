import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowIndex } from './row-index-types.js';
import type { ResultsIntegrity } from './types.js';
import { VIEW_INDEX_DIR, VIEW_INDEX_META, VIEW_INDEX_VERSION, columnFiles, type ViewIndexMeta } from './view-index-format.js';

/** A run's rows table read from its view index, and where in results.jsonl reading goes on. */
export interface ViewIndexData {
  columns: RowIndex;
  starts: number[];
  lengths: number[];
  /** What of results.jsonl the index describes. */
  results: ViewIndexMeta['results'];
}

/** What the index must agree with to be used. */
export interface ViewIndexExpectation {
  /** results.jsonl of the run. */
  resultsPath: string;
  /** The run's eval names (its summary's), in the order the viewer shows them. */
  evalNames?: readonly string[];
  /** The manifest's record of the results file, when it has one. */
  integrity?: ResultsIntegrity;
}

/**
 * The run's view index, or undefined when it cannot be trusted to describe the results file: none
 * was written (a run stored before it existed, a killed or resumed one), its meta is missing or
 * damaged, it covers more bytes than the file has, its record of the results is not the
 * manifest's, its evals are not the run's, or a column is short. The caller then reads the file.
 * The results file is not hashed here (that is the read this saves): the manifest's record
 * stands for it, as the index was written from the same lines.
 */
export async function readViewIndex(runDir: string, expect: ViewIndexExpectation): Promise<ViewIndexData | undefined> {
  const dir = join(runDir, VIEW_INDEX_DIR);
  try {
    const meta = JSON.parse(await readFile(join(dir, VIEW_INDEX_META), 'utf8')) as ViewIndexMeta;
    if (meta.version !== VIEW_INDEX_VERSION || !Array.isArray(meta.evalNames) || typeof meta.rows !== 'number') return undefined;
    const { results } = meta;
    if ((await stat(expect.resultsPath)).size < results.bytes) return undefined;
    if (expect.integrity !== undefined && (expect.integrity.rows !== results.rows || expect.integrity.sha256 !== results.sha256)) return undefined;
    if (expect.evalNames !== undefined && !sameNames(expect.evalNames, meta.evalNames)) return undefined;
    const n = meta.evalNames.length;
    const names = columnFiles(n);
    const labelled = new Set(meta.labelled);
    const texts = await Promise.all(names.map((name, c) => (c >= 8 + n && !labelled.has(c - 8 - n) ? Promise.resolve('') : readFile(join(dir, name), 'utf8'))));
    const values = texts.map((text, c) => (c === 7 ? [] : parseValues(text)));
    const verdicts = texts[7] as string;
    const rows = meta.rows;
    const complete = values.every((column, c) => c === 7 || column.length === rows || (c >= 8 + n && column.length === 0)) && verdicts.length === rows * n;
    if (!complete) return undefined;
    const [starts, lengths, index, repeat, flags, latencyMs, costUsd] = values as [number[], number[], number[], number[], number[], Array<number | null>, Array<number | null>];
    return {
      starts,
      lengths,
      results,
      columns: {
        evalNames: [...meta.evalNames],
        index,
        repeat,
        flags,
        latencyMs,
        costUsd,
        verdicts,
        scores: values.slice(8, 8 + n) as Array<Array<number | null>>,
        labels: values.slice(8 + n) as Array<Array<string | null>>,
      },
    };
  } catch {
    return undefined;
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, k) => b[k] === name);
}

/** A column file's values: JSON values each followed by a comma. */
function parseValues(text: string): unknown[] {
  if (text === '') return [];
  if (!text.endsWith(',')) throw new Error('a column file ends mid-value');
  return JSON.parse(`[${text.slice(0, -1)}]`) as unknown[];
}
