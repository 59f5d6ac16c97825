import type { PromptDiff } from '../../compare/prompt-diff-types.js';

function diffText(diff: PromptDiff): string {
  return diff.files.map((file) => file.unified).join('');
}

/** The table's prompt-diff section: the unified diff as `patch` reads it; nothing when the prompts are the same. */
export function promptDiffLines(diff: PromptDiff | undefined): string[] {
  if (!diff) return [];
  if (diff.note !== undefined) return ['', `Prompt diff: ${diff.note}`];
  if (diff.files.length === 0) return [];
  return ['', 'Prompt diff (the prompts as each run stored them):', ...diffText(diff).trimEnd().split('\n')];
}

/** The markdown's prompt-diff section: a `diff` code block in a collapsed section. */
export function promptDiffMarkdown(diff: PromptDiff | undefined): string[] {
  if (!diff) return [];
  if (diff.note !== undefined) return [`Prompt diff: ${diff.note}`, ''];
  if (diff.files.length === 0) return [];
  const text = diffText(diff).trimEnd();
  // A fence longer than any run of backticks in the prompts, so none can close it early.
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const count = diff.files.length;
  return [`<details><summary>Prompt diff (${count} file${count === 1 ? '' : 's'})</summary>`, '', `${fence}diff`, text, fence, '', '</details>', ''];
}
