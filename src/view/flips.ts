import { ROW_FAILED, type FlipsResponse, type RowIndex } from './api-types.js';

type RowVerdict = 'pass' | 'fail';

/**
 * A row's verdict as watch judges it (src/watch/run-history.ts): failing any eval or erroring
 * fails it; otherwise it passes when some eval passed; a row with only scores or labels has none.
 */
function rowVerdict(columns: RowIndex, p: number): RowVerdict | undefined {
  if ((columns.flags[p] as number) & ROW_FAILED) return 'fail';
  const n = columns.evalNames.length;
  return columns.verdicts.slice(p * n, p * n + n).includes('P') ? 'pass' : undefined;
}

/** Each (dataset index, repeat) of a run with its verdict. */
export function verdictsByRow(columns: RowIndex): Map<string, RowVerdict> {
  const verdicts = new Map<string, RowVerdict>();
  for (let p = 0; p < columns.index.length; p++) {
    const verdict = rowVerdict(columns, p);
    if (verdict) verdicts.set(`${columns.index[p]}:${columns.repeat[p]}`, verdict);
  }
  return verdicts;
}

/**
 * Rows of `current` whose verdict differs from the same dataset row and repeat in the previous
 * run, by position, with the verdict they flipped to.
 */
export function flippedRows(previous: string, before: ReadonlyMap<string, RowVerdict>, current: RowIndex): FlipsResponse {
  const flips: FlipsResponse['flips'] = [];
  for (let p = 0; p < current.index.length; p++) {
    const verdict = rowVerdict(current, p);
    const was = before.get(`${current.index[p]}:${current.repeat[p]}`);
    if (verdict && was && verdict !== was) flips.push([p, verdict]);
  }
  return { previous, flips };
}
