import type { RowListing } from '../experiment/list-rows.js';
import { MIN_CUT } from './fit-table.js';
import { truncate } from './truncate.js';

/** Characters of a row's input JSON shown by `--list`. */
const INPUT_WIDTH = 60;

/**
 * `--list`: one line per selected row (index, name, tags, the start of its input), under a
 * header with the prompt and the count. `-` stands for a missing name or no tags.
 */
export function formatRowList(listing: RowListing, columns?: number): string {
  const lines = listing.rows.map((row) => ({
    index: String(row.index),
    name: truncate(row.name ?? '-', 40),
    tags: truncate(row.tags.length === 0 ? '-' : row.tags.join(','), 30),
    input: JSON.stringify(row.input),
  }));
  const header = { index: '#', name: 'name', tags: 'tags', input: 'input' };
  const width = (key: 'index' | 'name' | 'tags'): number => Math.max(...[header, ...lines].map((line) => Array.from(line[key]).length));
  const [i, n, t] = [width('index'), width('name'), width('tags')];
  // The input takes what the line has left on a terminal (at least 12), else INPUT_WIDTH.
  const room = columns === undefined ? INPUT_WIDTH : Math.max(MIN_CUT, columns - (i + n + t + 8));
  const pad = (text: string, size: number): string => text + ' '.repeat(Math.max(0, size - Array.from(text).length));
  const text = [header, ...lines].map((line) => `  ${line.index.padStart(i)}  ${pad(line.name, n)}  ${pad(line.tags, t)}  ${truncate(line.input, room)}`.trimEnd());
  const count = listing.rows.length;
  return `${listing.promptPath}: ${count} of ${listing.datasetRows} row${listing.datasetRows === 1 ? '' : 's'} of ${listing.datasetPath} selected\n${text.join('\n')}\n`;
}
