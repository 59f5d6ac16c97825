/** One file of the prompt that differs between two runs, with both texts (the viewer diffs them by word). */
export interface PromptFileDiff {
  /** The file as base ran it; null when only head's prompt reads it. */
  base: { path: string; text: string } | null;
  /** The file as head ran it; null when only base's prompt reads it. */
  head: { path: string; text: string } | null;
  /** `diff -u` of base's text to head's, with `a/` and `b/` paths. */
  unified: string;
}

/** How the prompts of two runs differ, from the texts each run stored (not the files today). */
export interface PromptDiff {
  /** The prompt file first, then its components by path: only the files that differ. Empty when the prompts are the same. */
  files: PromptFileDiff[];
  /** Why the difference cannot be shown: a run made before runs kept their prompt, or a stored text that is gone. */
  note?: string;
}
