/** One column of a CSS grid table: at least `min` rem wide, sharing the rest by `fr` (fixed without). */
export interface GridColumn {
  min: number;
  fr?: number;
}

/**
 * A grid table's columns, built once per table and set on the element that holds its head and
 * rows (as CSS variables, read by the stylesheet), so no row carries a template of its own: a row
 * handed the wrong value (the rows table once passed its data object here) drew every cell in
 * one column, and htm's templates are not type-checked.
 */
export interface GridTemplate {
  readonly '--grid-columns': string;
  /** The least width the columns need: narrower, the table scrolls sideways in its own box. */
  readonly minWidth: string;
}

/** The gap between columns and the padding either side, in rem, as in style.css (.rows-head, .row). */
const GAP = 0.6;
const PADDING = 0.7;

export function gridTemplate(columns: readonly GridColumn[]): GridTemplate {
  const tracks = columns.map((c) => (c.fr === undefined ? `${c.min}rem` : `minmax(${c.min}rem, ${c.fr}fr)`));
  const least = columns.reduce((sum, c) => sum + c.min, 0) + GAP * Math.max(columns.length - 1, 0) + 2 * PADDING;
  return { '--grid-columns': tracks.join(' '), minWidth: `${Math.round(least * 100) / 100}rem` };
}
