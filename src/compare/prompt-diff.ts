import { BlobStore, type FileFingerprint, type StoredRun } from '../store/index.js';
import { unifiedDiff } from './line-diff.js';
import type { PromptDiff, PromptFileDiff } from './prompt-diff-types.js';

export type { PromptDiff, PromptFileDiff } from './prompt-diff-types.js';

/**
 * The difference between the prompts two runs were made from: the prompt files paired with
 * each other (whatever their paths), components paired by path.
 */
export async function promptDiff(base: StoredRun, head: StoredRun): Promise<PromptDiff> {
  const baseFiles = base.manifest.provenance?.files;
  const headFiles = head.manifest.provenance?.files;
  const old = [base, head].filter((run) => run.manifest.provenance === undefined).map((run) => run.manifest.id);
  if (!baseFiles?.[0] || !headFiles?.[0]) {
    // The same prompt text (its components unknown): nothing to show rather than a warning.
    if (base.manifest.prompt.hash === head.manifest.prompt.hash) return { files: [] };
    return { files: [], note: `run ${old.join(' and ')} did not keep ${old.length > 1 ? 'their' : 'its'} prompt (made before runs kept it), so the prompt diff cannot be shown` };
  }
  const pairs: Array<[FileFingerprint | undefined, FileFingerprint | undefined]> = [[baseFiles[0], headFiles[0]]];
  const restBase = baseFiles.slice(1);
  const restHead = headFiles.slice(1);
  const paths = [...new Set([...restBase, ...restHead].map((file) => file.path))].sort();
  for (const path of paths) pairs.push([restBase.find((f) => f.path === path), restHead.find((f) => f.path === path)]);
  const baseBlobs = BlobStore.ofRunDir(base.dir);
  const headBlobs = BlobStore.ofRunDir(head.dir);
  const files: PromptFileDiff[] = [];
  try {
    for (const [b, h] of pairs) {
      if (b && h && b.hash === h.hash) continue;
      const baseText = b ? await baseBlobs.get(b.hash) : '';
      const headText = h ? await headBlobs.get(h.hash) : '';
      files.push({
        base: b ? { path: b.path, text: baseText } : null,
        head: h ? { path: h.path, text: headText } : null,
        unified: unifiedDiff(baseText, headText, { base: b ? `a/${b.path}` : '/dev/null', head: h ? `b/${h.path}` : '/dev/null' }),
      });
    }
  } catch (error) {
    return { files: [], note: `the prompt diff cannot be shown: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { files };
}

/** The unified diffs of every file, one after another: what the table and markdown print. */
export function promptDiffText(diff: PromptDiff): string {
  return diff.files.map((file) => file.unified).join('');
}
