/** A row's `name` and `tags`: metadata keys that suites select rows by (`--name`, `--tag`). */
export interface RowLabels {
  name?: string;
  tags: string[];
}

/**
 * Reads `name` and `tags` from a parsed row's metadata. Returns a problem (for a DatasetError
 * naming the line) when they have the wrong shape, so a typo never silently drops a row from
 * every `--tag` selection.
 */
export function readRowLabels(metadata: Record<string, unknown>): RowLabels | { problem: string; code: 'DATASET_BAD_NAME' | 'DATASET_BAD_TAGS' } {
  const { name, tags } = metadata;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
    return { code: 'DATASET_BAD_NAME', problem: `"name" must be a non-empty string (got ${JSON.stringify(name)})` };
  }
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string' || tag.trim() === ''))) {
    return { code: 'DATASET_BAD_TAGS', problem: `"tags" must be an array of non-empty strings (got ${JSON.stringify(tags)})` };
  }
  return { ...(name === undefined ? {} : { name }), tags: (tags as string[] | undefined) ?? [] };
}

/** The labels of a row already checked by parseRow. */
export function rowLabels(metadata: Record<string, unknown>): RowLabels {
  const labels = readRowLabels(metadata);
  return 'problem' in labels ? { tags: [] } : labels;
}
