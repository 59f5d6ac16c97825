import { truncate } from './truncate.js';
import { wrapWords } from './wrap-words.js';

/**
 * A cell shortened to at most `width` characters where its kind allows, else to the shortest
 * form it has (which may be wider: the caller then measures it). `row` is the body row's index.
 * `lastResort`: every column that can be dropped is gone and the table still does not fit, so
 * what is kept longest (an eval's name) may give way too.
 */
export type Shorten = (text: string, width: number, row: number, lastResort: boolean) => string;

/** One column of a table to fit, and how it gives way. */
export interface FitColumn {
  header: string;
  /**
   * `cut`: free text (inputs, outputs, paths), cut with `…` down to 12 characters (or its own
   * width); `keep`: never shortened (ids, counts, verdict words); a function: shortened its own
   * way (a verdict keeps its word and score and loses its reason), after every `cut` column.
   * The header of a column that is not `cut` (an eval's name) is never shortened.
   * @default 'keep'
   */
  shrink?: 'cut' | 'keep' | Shorten;
  /** Columns of one group are given back their whole cells together or not at all (Base and Head alike). */
  group?: string;
  /** Cut the header too (a run's label), down to its cells' width or 12; an eval's name never is. */
  cutHeader?: boolean;
  /** The header shown once the column's cells are shortened (`Difference` for `Difference [95% CI]`). */
  shortHeader?: string;
  /** When even the shortest cells do not fit, columns are dropped by this rank, 1 first; never without one. */
  drop?: number;
}

export interface FittedTable {
  headers: string[];
  rows: string[][];
  /** Headers of the columns left out, in the order they were dropped. */
  dropped: string[];
  /** For each column shown, its index in the columns given. */
  kept: number[];
}

/** Narrowest a `cut` column is cut to: enough for a short path or `{"q":"2+2"}`. */
export const MIN_CUT = 12;
/** Box drawing around n columns: `│ ` before each, ` │` after the last, ` │ ` between. */
const frame = (columns: number): number => 3 * columns + 1;
const length = (text: string): number => Array.from(text).length;

/**
 * Fits a box-drawn table to `width` terminal columns, never by wrapping. The order, the same for
 * every table (`docs/cli.md`, "Tables fit the terminal"):
 *   1. `cut` columns (free text) are cut, the widest first, down to 12 characters;
 *   2. columns with their own shortening (verdict reasons, intervals, the run's eval list) are
 *      shortened, the widest first, to their shortest form;
 *   3. columns are dropped by their `drop` rank, and 1–2 start again with the rest;
 *   4. with every droppable column dropped, 1–2 again as a last resort (`lastResort`: an eval
 *      list's or a chip's eval name is cut, its value or verdict never).
 * Verdict words and ids are never cut. Undefined when even that does not fit: the caller shows
 * one block per row; or, with `narrowest`, the narrowest form (a little wider than asked).
 */
export function fitTable(columns: readonly FitColumn[], rows: ReadonlyArray<readonly string[]>, width: number, options: { narrowest?: boolean } = {}): FittedTable | undefined {
  const droppable = columns
    .map((column, index) => ({ index, rank: column.drop }))
    .filter((c): c is { index: number; rank: number } => c.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || b.index - a.index);
  // Columns are dropped before anything is cut as a last resort (an eval's name).
  for (const lastResort of [false, true]) {
    for (let dropped = lastResort ? droppable.length : 0; dropped <= droppable.length; dropped++) {
      const gone = new Set(droppable.slice(0, dropped).map((c) => c.index));
      const kept = columns.map((_, index) => index).filter((index) => !gone.has(index));
      const fitted = fitKept(kept.map((index) => columns[index] as FitColumn), rows.map((row) => kept.map((index) => row[index] ?? '')), width, lastResort);
      if (fitted) return { ...fitted, kept, dropped: droppable.slice(0, dropped).map((c) => columns[c.index]?.header ?? '') };
    }
  }
  // Nothing fits even then (three runs' verdicts side by side at 80 columns): with `narrowest`,
  // its narrowest form, a little wider than asked, rather than the whole table hundreds of
  // columns wide. Without it, undefined: the caller has another layout (the rows as blocks).
  if (options.narrowest !== true) return undefined;
  const gone = new Set(droppable.map((c) => c.index));
  const kept = columns.map((_, index) => index).filter((index) => !gone.has(index));
  const narrowest = fitKept(kept.map((index) => columns[index] as FitColumn), rows.map((row) => kept.map((index) => row[index] ?? '')), width, true, true);
  return narrowest && { ...narrowest, kept, dropped: droppable.map((c) => columns[c.index]?.header ?? '') };
}

function fitKept(columns: readonly FitColumn[], rows: ReadonlyArray<readonly string[]>, width: number, lastResort: boolean, overflow = false): Omit<FittedTable, 'dropped' | 'kept'> | undefined {
  // The text each column shows at each target width, and the width that text takes.
  const natural = columns.map((column, c) => rows.reduce((max, row) => Math.max(max, length(row[c] ?? '')), length(column.header)));
  const target = [...natural];
  const shown = (c: number): string[] => {
    const column = columns[c] as FitColumn;
    const size = target[c] ?? 0;
    if (size >= (natural[c] ?? 0)) return rows.map((row) => row[c] ?? '');
    if (column.shrink === 'cut') return rows.map((row) => truncate(row[c] ?? '', size));
    const shorten = column.shrink;
    if (typeof shorten !== 'function') return rows.map((row) => row[c] ?? '');
    return rows.map((row, r) => {
      const text = row[c] ?? '';
      return length(text) <= size ? text : shorten(text, size, r, lastResort);
    });
  };
  const headerOf = (c: number): string => {
    const column = columns[c] as FitColumn;
    return column.shortHeader !== undefined && (target[c] ?? 0) < (natural[c] ?? 0) ? column.shortHeader : column.header;
  };
  const measure = (c: number, cells: readonly string[]): number => {
    const column = columns[c] as FitColumn;
    const body = cells.reduce((max, cell) => Math.max(max, length(cell)), 0);
    if (column.cutHeader === true) return Math.max(body, Math.min(length(column.header), Math.max(MIN_CUT, body)));
    const header = column.shrink === 'cut' ? Math.min(length(column.header), target[c] ?? 0) : length(headerOf(c));
    return Math.max(body, header);
  };
  const cells = columns.map((_, c) => shown(c));
  const widths = columns.map((_, c) => measure(c, cells[c] ?? []));
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + frame(columns.length);

  // 1. Free text, the widest first, one character at a time.
  const cuttable = columns.map((column, c) => c).filter((c) => columns[c]?.shrink === 'cut');
  while (total() > width) {
    const floor = (c: number): number => Math.min(natural[c] ?? 0, MIN_CUT);
    const candidates = cuttable.filter((c) => (widths[c] ?? 0) > floor(c));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => ((widths[b] ?? 0) > (widths[a] ?? 0) ? b : a));
    target[widest] = (widths[widest] ?? 0) - 1;
    widths[widest] = target[widest] ?? 0;
  }
  if (cuttable.length > 0) for (const c of cuttable) cells[c] = shown(c);

  // 2. Columns with their own shortening, the widest first, until each is at its shortest.
  const shrinking = columns.map((column, c) => c).filter((c) => typeof columns[c]?.shrink === 'function');
  const done = new Set<number>();
  while (total() > width) {
    const candidates = shrinking.filter((c) => !done.has(c));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => ((widths[b] ?? 0) > (widths[a] ?? 0) ? b : a));
    const before = widths[widest] ?? 0;
    target[widest] = Math.min((target[widest] ?? 0) - 1, before - 1);
    const next = shown(widest);
    const after = measure(widest, next);
    if (after >= before) {
      // Its cells have no shorter form at this width; try narrower until none is left.
      if ((target[widest] ?? 0) <= 0) done.add(widest);
      continue;
    }
    cells[widest] = next;
    widths[widest] = after;
  }
  // A group is shortened as one: when one member lost its intervals, every member does.
  for (const c of shrinking) {
    const group = columns[c]?.group;
    if (group === undefined || !shrinking.some((o) => columns[o]?.group === group && (target[o] ?? 0) < (natural[o] ?? 0))) continue;
    target[c] = 0;
    cells[c] = shown(c);
    widths[c] = measure(c, cells[c] ?? []);
  }
  if (total() > width && !overflow) return undefined;

  // A shortening can take off more than was needed (`PASS (1.00 - output equals…)` → `PASS (1.00)`):
  // what is left goes back, to the shortened cells first (they were cut last), then to the text.
  const groups = new Set(shrinking.flatMap((c) => (columns[c]?.group === undefined ? [] : [columns[c]?.group])));
  for (const group of groups) {
    const members = shrinking.filter((c) => columns[c]?.group === group);
    const before = members.map((c) => target[c] ?? 0);
    for (const c of members) target[c] = natural[c] ?? 0;
    const whole = members.map((c) => shown(c));
    const grown = members.map((c, i) => measure(c, whole[i] ?? []));
    const extra = members.reduce((sum, c, i) => sum + (grown[i] ?? 0) - (widths[c] ?? 0), 0);
    if (total() + extra <= width) {
      members.forEach((c, i) => {
        cells[c] = whole[i] ?? [];
        widths[c] = grown[i] ?? 0;
      });
    } else members.forEach((c, i) => (target[c] = before[i] ?? 0));
  }
  for (const c of shrinking) {
    if (columns[c]?.group !== undefined) continue;
    for (let size = (target[c] ?? 0) + 1; size <= (natural[c] ?? 0); size++) {
      const saved = target[c] ?? 0;
      target[c] = size;
      const next = shown(c);
      const grown = measure(c, next);
      if (total() - (widths[c] ?? 0) + grown > width) {
        target[c] = saved;
        break;
      }
      cells[c] = next;
      widths[c] = grown;
    }
  }
  while (total() < width) {
    const candidates = cuttable.filter((c) => (widths[c] ?? 0) < (natural[c] ?? 0));
    if (candidates.length === 0) break;
    const narrowest = candidates.reduce((a, b) => ((widths[b] ?? 0) < (widths[a] ?? 0) ? b : a));
    target[narrowest] = (widths[narrowest] ?? 0) + 1;
    widths[narrowest] = target[narrowest] ?? 0;
  }
  for (const c of cuttable) cells[c] = shown(c);
  const headers = columns.map((column, c) => (column.shrink === 'cut' || column.cutHeader === true ? truncate(column.header, widths[c] ?? 0) : headerOf(c)));
  return { headers, rows: rows.map((_, r) => columns.map((__, c) => cells[c]?.[r] ?? '')) };
}

/** The line under a fitted table that says which columns it left out and where they are, wrapped to `width`; none when it left out nothing. */
export function leftOutNote(fitted: FittedTable | undefined, width: number | undefined, all: string): string[] {
  if (!fitted || fitted.dropped.length === 0) return [];
  return wrapWords(`Not shown, to fit ${width} columns: ${fitted.dropped.join(', ')} (all of it: ${all}).`, width ?? 0);
}
