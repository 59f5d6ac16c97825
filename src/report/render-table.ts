const width = (text: string): number => {
  // Code points, not UTF-16 units, so an emoji counts once.
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

const pad = (text: string, size: number): string => text + ' '.repeat(Math.max(0, size - width(text)));

/**
 * A box-drawn table sized to its cells. Cells must already be single-line; the table does not
 * wrap, because wrapped rows are harder to scan than truncated ones.
 */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((header, column) =>
    rows.reduce((max, row) => Math.max(max, width(row[column] ?? '')), width(header)),
  );
  const rule = (left: string, middle: string, right: string): string =>
    left + widths.map((size) => '─'.repeat(size + 2)).join(middle) + right;
  const line = (cells: readonly string[]): string =>
    `│ ${widths.map((size, column) => pad(cells[column] ?? '', size)).join(' │ ')} │`;
  return [
    rule('┌', '┬', '┐'),
    line(headers),
    rule('├', '┼', '┤'),
    ...rows.map(line),
    rule('└', '┴', '┘'),
  ].join('\n');
}
