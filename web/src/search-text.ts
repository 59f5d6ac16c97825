import type { RowResult } from './api.js';

/** What a search looks in; the same fields as the server's search (src/view/run-index.ts). */
export function searchableText(row: RowResult): string {
  return JSON.stringify([row.input, row.output, row.expectedOutput, row.metadata, row.error, row.evals, row.toolCalls]).toLowerCase();
}
