import { DatasetError } from '../errors/index.js';
import { matchesFilter, type RowFilter } from './row-filter.js';
import { rowLabels } from './row-labels.js';
import type { DatasetRow } from './types.js';

/**
 * What one pass over a dataset learns about its row names and tags: a duplicate name (an input
 * error naming both lines), the known names and tags (for the "no rows matched" hint), and the
 * indexes a filter keeps. Holds the names, the distinct tags and the matched indexes, never rows.
 */
export class LabelIndex {
  private readonly names = new Map<string, number>();
  readonly tags = new Set<string>();
  readonly matched: number[] = [];

  constructor(
    private readonly file: string,
    private readonly filter?: RowFilter,
  ) {}

  /** Returns the duplicate-name error for this row, if its name was seen on an earlier line. */
  add(row: DatasetRow): DatasetError | undefined {
    const labels = rowLabels(row.metadata);
    for (const tag of labels.tags) this.tags.add(tag);
    if (this.filter && matchesFilter(labels, this.filter)) this.matched.push(row.index);
    if (labels.name === undefined) return undefined;
    const first = this.names.get(labels.name);
    if (first === undefined) {
      this.names.set(labels.name, row.line);
      return undefined;
    }
    return new DatasetError('DATASET_DUPLICATE_NAME', `row name "${labels.name}" is already used on line ${first}`, {
      location: { file: this.file, line: row.line },
      hint: 'row names must be unique within a dataset: rename one of the two rows',
    });
  }

  get knownNames(): string[] {
    return [...this.names.keys()];
  }
}
