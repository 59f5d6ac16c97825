import { readFile } from 'node:fs/promises';
import { parseFrontmatter } from '../prompt/frontmatter.js';

/**
 * Each prompt's `test_settings.models`, read from its frontmatter alone (no body parse) before
 * the runs start, so their providers are checked as `--model` flags are. A prompt that cannot be
 * read, or whose list is malformed, is left out here: its own run reports the problem where it is.
 */
export async function promptModelsOf(promptPaths: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const path of promptPaths) {
    try {
      const parsed = await parseFrontmatter(path, await readFile(path, 'utf8'));
      const settings = parsed.data['test_settings'];
      const models = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>)['models'] : undefined;
      if (Array.isArray(models) && models.length > 0 && models.every((m): m is string => typeof m === 'string' && m.trim() !== '')) {
        out.set(path, [...new Set(models.map((m) => m.trim()))]);
      }
    } catch {
      // Reported by the prompt's run (loadPrompt), with its file:line.
    }
  }
  return out;
}
