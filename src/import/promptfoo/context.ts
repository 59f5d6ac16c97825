import type { ProjectBuilder } from '../project-builder.js';
import type { LocatedDocument } from '../source-map.js';
import type { ImportResult, SourceRef } from '../types.js';

/** What the promptfoo importer's parts read and add to. */
export interface PromptfooContext {
  builder: ProjectBuilder;
  result: ImportResult;
  doc: LocatedDocument;
  /** Reads a file relative to the config's folder (undefined when it does not exist). */
  read: (file: string) => Promise<string | undefined>;
  /** How to name a file relative to the config in messages. */
  shown: (file: string) => string;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `file://path` → `path`, else undefined. */
export const fileRef = (value: unknown): string | undefined => (typeof value === 'string' && value.startsWith('file://') ? value.slice('file://'.length) : undefined);

export type { SourceRef };
