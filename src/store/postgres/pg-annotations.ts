import type { Pool } from 'pg';
import type { AnnotationLine } from '../../review/types.js';

/** Appends a run's label lines in the order given (one statement). */
export async function insertAnnotations(pool: Pool, id: string, lines: readonly AnnotationLine[]): Promise<void> {
  await pool.query(
    'INSERT INTO agentmark_annotations (run_id, line) SELECT $1, l FROM unnest($2::text[]) WITH ORDINALITY AS t (l, n) ORDER BY n',
    [id, lines.map((line) => JSON.stringify(line))],
  );
}

/** A run's label lines in the order they were appended. */
export async function selectAnnotations(pool: Pool, id: string): Promise<AnnotationLine[]> {
  const { rows } = await pool.query<{ line: string }>('SELECT line FROM agentmark_annotations WHERE run_id = $1 ORDER BY id', [id]);
  return rows.map((row) => JSON.parse(row.line) as AnnotationLine);
}
