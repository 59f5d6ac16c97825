/** Where something came from in the files being imported: shown as `file:line`. */
export interface SourceRef {
  /** As the user named it (relative to where the command ran). */
  file: string;
  line?: number;
}

/** One thing that came over, and what it became. */
export interface ImportedItem {
  what: string;
  from: SourceRef;
  to: string;
}

/** One thing that did not come over (or came over changed), with why. */
export interface ImportIssue {
  what: string;
  from: SourceRef;
  why: string;
  /** The source kept as it was (a python grader, an unknown assertion), for a person to port. */
  verbatim?: string;
}

/** What an importer produced: the files to write and the report of what it did. */
export interface ImportResult {
  tool: 'promptfoo' | 'OpenAI Evals';
  /** Project files by path relative to the output folder. */
  files: Map<string, string>;
  imported: ImportedItem[];
  /** Left out: the project runs without them, but something the source checked is no longer checked. */
  leftOut: ImportIssue[];
  /** Came over with a difference worth knowing (a metric computed differently, a default changed). */
  notes: ImportIssue[];
  /** The prompts written, for the commands the report suggests. */
  prompts: string[];
  /** False when nothing could be read: the command exits 2 and writes nothing. */
  readable: boolean;
}

export function sourceText(ref: SourceRef): string {
  return ref.line === undefined ? ref.file : `${ref.file}:${ref.line}`;
}
