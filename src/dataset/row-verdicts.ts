/** A verdict as a score schema reads it: pass/fail, a number, or a category label. */
export type Verdict = boolean | number | string;

/**
 * A row's `labels`: human verdicts by eval name, which make the dataset a calibration set for
 * its judges. Checked for shape when the row is read (against the score schemas when a run
 * starts); like `name` and `tags` they stay in the row's metadata, so they are no part of its
 * input and a scorer still sees them.
 */
export function readRowVerdicts(metadata: Record<string, unknown>): { verdicts: Record<string, Verdict> } | { problem: string } | undefined {
  const labels = metadata['labels'];
  if (labels === undefined) return undefined;
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
    return { problem: `"labels" must be an object of human verdicts by eval name (got ${JSON.stringify(labels)})` };
  }
  for (const [name, value] of Object.entries(labels)) {
    if (typeof value !== 'boolean' && typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
      return { problem: `"labels.${name}" must be true, false, a number or a category label (got ${JSON.stringify(value)})` };
    }
  }
  return { verdicts: labels as Record<string, Verdict> };
}

/** The verdicts of a row already checked when it was read. */
export function rowVerdicts(metadata: Record<string, unknown>): Record<string, Verdict> | undefined {
  const verdicts = readRowVerdicts(metadata);
  return verdicts !== undefined && 'verdicts' in verdicts ? verdicts.verdicts : undefined;
}
