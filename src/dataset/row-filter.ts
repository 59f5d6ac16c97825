import { UsageError } from '../errors/index.js';
import type { RowLabels } from './row-labels.js';

/**
 * Rows chosen by name or tag (`--name`, `--tag`), applied before `--rows`/`--sample`/`--split`.
 * A row is kept when its name is one of `names` or when it has every tag of one of `tags`
 * (`--tag a+b` is the group `[a, b]`). `flags` is how the command line said it, for messages.
 */
export interface RowFilter {
  names: string[];
  tags: string[][];
  flags: string;
}

/** `--tag smoke --tag a+b --name refund-basic` → a filter; undefined when none was given. */
export function parseRowFilter(tags: readonly string[] = [], names: readonly string[] = []): RowFilter | undefined {
  if (tags.length === 0 && names.length === 0) return undefined;
  const groups = tags.map((spec) => {
    const group = spec.split('+').map((tag) => tag.trim());
    if (group.some((tag) => tag === '')) {
      throw new UsageError('USAGE_BAD_VALUE', `--tag "${spec}": an empty tag`, { hint: 'e.g. --tag smoke, or --tag smoke+billing for rows with both' });
    }
    return group;
  });
  for (const name of names) {
    if (name.trim() === '') throw new UsageError('USAGE_BAD_VALUE', '--name needs a row name', { hint: 'e.g. --name refund-basic' });
  }
  const flags = [...tags.map((tag) => `--tag ${tag}`), ...names.map((name) => `--name ${name}`)].join(' ');
  return { names: [...names], tags: groups, flags };
}

export function matchesFilter(labels: RowLabels, filter: RowFilter): boolean {
  if (labels.name !== undefined && filter.names.includes(labels.name)) return true;
  return filter.tags.some((group) => group.every((tag) => labels.tags.includes(tag)));
}
