import { truncate } from './truncate.js';
import { wrapWords } from './wrap-words.js';

const length = (text: string): number => Array.from(text).length;
/** A line of a drawn table: fitted already (fit-table.ts), never wrapped here. */
const TABLE = /^[┌│├└]/;
/** A line of a unified diff (`+new`, `-old`, `@@`): a wrapped piece would lose its marker, so it is cut. */
const DIFF = /^(?:[+-]|@@)/;

/**
 * Terminal text fitted to `width` columns as the tables are: prose lines (hints, notes, a changed
 * row's input and reasons) wrap at word boundaries, their continuation indented two spaces past
 * the line's own indent; diff lines are cut with `…`; table lines are left as they are. No
 * width (a file): the text as it is.
 */
export function fitProse(text: string, width: number | undefined): string {
  if (width === undefined || width <= 0) return text;
  return text
    .split('\n')
    .flatMap((line) => {
      if (length(line) <= width || TABLE.test(line)) return [line];
      if (DIFF.test(line)) return [truncate(line, width)];
      const indent = Math.min(/^ */.exec(line)?.[0].length ?? 0, Math.floor(width / 2));
      const lead = ' '.repeat(indent);
      const more = ' '.repeat(Math.min(indent + 2, Math.floor(width / 2)));
      const [first = '', ...rest] = wrapWords(line.trimStart(), width - indent);
      // The lines after the first carry the deeper indent, so they are wrapped again at its width.
      const tail = rest.length === 0 ? [] : wrapWords(rest.join(' '), width - more.length).map((piece) => `${more}${piece}`);
      return [`${lead}${first}`, ...tail];
    })
    .join('\n');
}
