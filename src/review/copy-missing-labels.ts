import { canonicalJson } from '../canonical-json.js';
import type { RunStorage } from '../store/storage.js';

/**
 * Appends to `to` the label lines of run `id` that `from` has and `to` lacks, in `from`'s order;
 * returns how many. Labels are an append-only log whose lines carry their reviewer and time, so a
 * line is the same label wherever it is stored: a label written in this clone while the team
 * store was down reaches the store on the next `runs push`, beside the labels others wrote there
 * meanwhile, and pushing again sends nothing.
 */
export async function copyMissingLabels(from: RunStorage, to: RunStorage, id: string): Promise<number> {
  const mine = await from.readAnnotations(id);
  if (mine.length === 0) return 0;
  const theirs = new Set((await to.readAnnotations(id)).map((line) => canonicalJson(line)));
  const missing = mine.filter((line) => !theirs.has(canonicalJson(line)));
  if (missing.length > 0) await to.appendAnnotations(id, missing);
  return missing.length;
}
