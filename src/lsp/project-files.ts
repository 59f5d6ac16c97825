import { readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Files under `root` whose names end with `suffix`; node_modules and dot-folders skipped. */
export async function filesEndingWith(root: string, suffix: string, limit = 500): Promise<string[]> {
  const found: string[] = [];
  const pending = [root];
  while (pending.length > 0 && found.length < limit) {
    const dir = pending.pop() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) pending.push(join(dir, entry.name));
      } else if (entry.name.endsWith(suffix)) found.push(join(dir, entry.name));
    }
  }
  return found.sort();
}

/** `file` as a prompt at `from` names it: relative to the prompt's folder, `./` or `../` first. */
export function relativeTo(from: string, file: string): string {
  const path = relative(dirname(from), file).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
