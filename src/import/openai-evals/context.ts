import type { ProjectBuilder } from '../project-builder.js';
import type { LocatedDocument } from '../source-map.js';
import type { ImportResult } from '../types.js';

/** What every grader conversion reads and adds to. */
export interface GraderContext {
  builder: ProjectBuilder;
  result: ImportResult;
  /** The eval definition, to name lines. */
  doc: LocatedDocument;
  /** The item field that became each row's expected_output, if any grader references one. */
  expectedField: string | undefined;
}

/** A grader as the Evals API defines it; fields are checked where they are read. */
export type Grader = Record<string, unknown>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `gpt-4o-mini` → `openai/gpt-4o-mini` (Evals only ran OpenAI models). */
export const openaiModel = (model: string): string => (model.includes('/') ? model : `openai/${model}`);
