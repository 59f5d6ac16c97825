import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Every `*.prompt.mdx` under `dir`, absolute and sorted; node_modules and dot-folders are skipped. */
export async function findPromptFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  // A work list instead of recursion: deep folder trees cost no stack.
  const pending = [resolve(dir)];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) pending.push(path);
      } else if (entry.isFile() && entry.name.endsWith('.prompt.mdx')) {
        found.push(path);
      }
    }
  }
  return found.sort();
}
