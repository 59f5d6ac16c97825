import type { ScoreSchema } from './types.js';
import { escapePointerSegment } from './json-source-map.js';
import type { SchemaViolation } from './schema-violation.js';

/**
 * Rules JSON Schema cannot say well: a numeric range must not be empty, and categorical
 * labels must be unique since a scorer's `label` picks exactly one category.
 * Runs only on a file that already passed the schema, so shapes can be trusted.
 */
export function checkScores(scores: Record<string, ScoreSchema>): SchemaViolation[] {
  const problems: SchemaViolation[] = [];
  for (const [name, schema] of Object.entries(scores)) {
    const base = `/scores/${escapePointerSegment(name)}`;
    if (schema.min !== undefined && schema.max !== undefined && schema.min >= schema.max) {
      const problem = `must be less than max (min ${schema.min}, max ${schema.max})`;
      problems.push({ pointer: `${base}/min`, message: `${base}/min ${problem}`, problem });
    }
    const labels = new Set<string>();
    schema.categories?.forEach((category, index) => {
      if (labels.has(category.label)) {
        const problem = `"${category.label}" appears more than once`;
        problems.push({ pointer: `${base}/categories/${index}/label`, message: `${base}/categories/${index}/label ${problem}`, problem });
      }
      labels.add(category.label);
    });
  }
  return problems;
}
