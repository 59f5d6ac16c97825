const width = (text: string): number => {
  // Code points, not UTF-16 units, so an emoji counts once.
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

/**
 * Colours a body cell's text (or part of it): `column` is its index, `whole` the full cell it
 * came from, so a style can tell `PASS …` from `FAIL …` however the cell was cut or wrapped.
 * Applied after widths are measured, so escape codes never count as characters.
 */
export type CellStyle = (text: string, column: number, whole: string) => string;

/**
 * A box-drawn table sized to its cells. Cells must already be single-line; the table does not
 * wrap, because wrapped rows are harder to scan than truncated ones.
 */
export function renderTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  style: CellStyle = (text) => text,
  headerStyle: (text: string) => string = (text) => text,
): string {
  const widths = headers.map((header, column) =>
    rows.reduce((max, row) => Math.max(max, width(row[column] ?? '')), width(header)),
  );
  const rule = (left: string, middle: string, right: string): string =>
    left + widths.map((size) => '─'.repeat(size + 2)).join(middle) + right;
  const line = (cells: readonly string[], paint: (text: string, column: number) => string): string =>
    `│ ${widths.map((size, column) => paint(cells[column] ?? '', column) + ' '.repeat(Math.max(0, size - width(cells[column] ?? '')))).join(' │ ')} │`;
  return [
    rule('┌', '┬', '┐'),
    line(headers, (text) => headerStyle(text)),
    rule('├', '┼', '┤'),
    ...rows.map((row) => line(row, (text, column) => style(text, column, text))),
    rule('└', '┴', '┘'),
  ].join('\n');
}
