import type { CellStyle } from './render-table.js';
import { wrapWords } from './wrap-words.js';

const chars = (text: string): string[] => Array.from(text);

/** Below this many characters for a value, values go under their label instead of beside it. */
const MIN_VALUE = 20;


/**
 * The table as one block per row, for a terminal too narrow for its columns: a rule naming the
 * row (the first cell), then each header beside its value, long values wrapped to the width
 * at spaces rather than cut, since here nothing else competes for the line.
 */
export function renderBlocks(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  width: number,
  style: CellStyle = (text) => text,
): string {
  const [first = '#', ...labels] = headers;
  const labelWidth = Math.max(0, ...labels.map((label) => chars(label).length));
  const beside = width - labelWidth - 4 >= MIN_VALUE;
  const valueWidth = Math.max(MIN_VALUE, beside ? width - labelWidth - 4 : width - 4);
  const lines: string[] = [];
  for (const row of rows) {
    const title = `── ${first}${row[0] ?? ''} `;
    lines.push(title + '─'.repeat(Math.max(0, width - chars(title).length)));
    labels.forEach((label, i) => {
      const column = i + 1;
      const value = wrapWords(row[column] ?? '', valueWidth).map((part) => style(part, column, row[column] ?? ''));
      if (beside) {
        const indent = ' '.repeat(labelWidth + 4);
        lines.push(`  ${label}${' '.repeat(labelWidth - chars(label).length)}  ${value[0] ?? ''}`, ...value.slice(1).map((part) => indent + part));
      } else {
        lines.push(`  ${label}`, ...value.map((part) => `    ${part}`));
      }
    });
  }
  return lines.join('\n');
}
