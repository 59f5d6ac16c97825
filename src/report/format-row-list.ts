import type { RowListing } from '../experiment/list-rows.js';
import { truncate } from './truncate.js';

/** Characters of a row's input JSON shown by `--list`. */
const INPUT_WIDTH = 60;

/**
 * `--list`: one line per selected row (index, name, tags, the start of its input), under a
 * header with the prompt and the count. `-` stands for a missing name or no tags.
 */
export function formatRowList(listing: RowListing): string {
  const lines = listing.rows.map((row) => ({
    index: String(row.index),
    name: row.name ?? '-',
    tags: row.tags.length === 0 ? '-' : row.tags.join(','),
    input: truncate(JSON.stringify(row.input), INPUT_WIDTH),
  }));
  const header = { index: '#', name: 'name', tags: 'tags', input: 'input' };
  const width = (key: 'index' | 'name' | 'tags'): number => Math.max(...[header, ...lines].map((line) => line[key].length));
  const [i, n, t] = [width('index'), width('name'), width('tags')];
  const text = [header, ...lines].map((line) => `  ${line.index.padStart(i)}  ${line.name.padEnd(n)}  ${line.tags.padEnd(t)}  ${line.input}`.trimEnd());
  const count = listing.rows.length;
  return `${listing.promptPath}: ${count} of ${listing.datasetRows} row${listing.datasetRows === 1 ? '' : 's'} of ${listing.datasetPath} selected\n${text.join('\n')}\n`;
}
