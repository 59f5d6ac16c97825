import type { AnnotationLine } from './types.js';

/** Key of the label a line sets: one per reviewer, row (and repeat) and eval. */
export function labelKey(line: Pick<AnnotationLine, 'reviewer' | 'index' | 'repeat' | 'eval'>): string {
  return `${line.reviewer}\u0000${line.index}\u0000${line.repeat}\u0000${line.eval}`;
}

/** The labels in force after replaying the lines in order: the latest per key, undone ones gone. */
export function currentLabels(lines: readonly AnnotationLine[]): Map<string, AnnotationLine> {
  const current = new Map<string, AnnotationLine>();
  for (const line of lines) {
    const key = labelKey(line);
    if (line.cleared || line.value === undefined) current.delete(key);
    else current.set(key, line);
  }
  return current;
}
