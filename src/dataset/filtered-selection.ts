import { UsageError } from '../errors/index.js';
import { closestMatch } from '../errors/closest.js';
import type { LabelIndex } from './label-index.js';
import { sampleIndexes, splitBucket } from './random.js';
import { percentOfRows } from './select-rows.js';
import type { RowFilter } from './row-filter.js';
import type { RowSelection } from './types.js';

const MAX_LISTED = 20;

/**
 * The row indexes to run when a name/tag filter is given: the filter first, then the selection
 * over the rows it kept. `--rows` keeps matched rows within its ranges (indexes stay the file's),
 * `--split` keeps matched rows in its buckets (so train and test still partition them), and
 * `--sample P` / `--sample-rows N` draw P% / N of the matched rows with the seed, `--limit N`
 * keeps the first N matched.
 */
export function filteredIndexes(matched: readonly number[], selection: RowSelection): Set<number> {
  switch (selection.kind) {
    case 'all':
      return new Set(matched);
    case 'rows':
      return new Set(matched.filter((index) => selection.ranges.some(([start, end]) => index >= start && index <= end)));
    case 'sample':
    case 'percent': {
      const count = selection.kind === 'sample' ? selection.count : percentOfRows(matched.length, selection.percent);
      const positions = sampleIndexes(matched.length, count, selection.seed);
      return new Set(matched.filter((_, position) => positions.has(position)));
    }
    case 'limit':
      return new Set(matched.slice(0, selection.count));
    case 'split': {
      // As selectRows: the number is the train portion; seeded by bucket, else by position.
      const { name, percent, seed } = selection;
      if (seed === undefined) {
        const train = percentOfRows(matched.length, percent);
        return new Set(name === 'train' ? matched.slice(0, train) : matched.slice(train));
      }
      return new Set(matched.filter((index) => (splitBucket(index, seed) < percent) === (name === 'train')));
    }
  }
}

/**
 * A selection that kept no row: exit 2 with the known tags and names and the closest one to
 * what was asked, so a mistyped tag is never a silent pass.
 */
export function noRowsMatched(filter: RowFilter, labels: LabelIndex, file: string, matched: number): UsageError {
  const asked = [...filter.names, ...filter.tags.flat()];
  const known = [...labels.knownNames, ...labels.tags];
  const suggestions = [...new Set(asked.filter((word) => !known.includes(word)).map((word) => closestMatch(word, known)).filter((m) => m !== undefined))];
  // A dataset of thousands of named rows would drown the message: the first few say enough.
  const list = (words: string[]): string =>
    words.length === 0 ? '(none)' : words.length <= MAX_LISTED ? words.join(', ') : `${words.slice(0, MAX_LISTED).join(', ')}, … (${words.length - MAX_LISTED} more)`;
  const knownList = `known tags: ${list([...labels.tags].sort())}; known names: ${list(labels.knownNames)}`;
  const hint = suggestions.length > 0 ? `did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}? ${knownList}` : knownList;
  const why = matched === 0 ? '' : ` (${matched} row${matched === 1 ? '' : 's'} matched, none left after --rows/--sample/--split)`;
  return new UsageError('USAGE_NO_ROWS_MATCHED', `no rows matched ${filter.flags}${why}`, { location: { file }, hint });
}
