import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFrontmatter } from '../prompt/frontmatter.js';
import { BlobStore } from '../store/index.js';
import type { RunManifest } from '../store/types.js';

/**
 * The prompt's `test_settings.experiment_key`, read from the prompt as the run stored it (its
 * blob), else from the file now. Undefined when it has none or cannot be read: a trace
 * attribute is never worth failing an export for.
 */
export async function experimentKeyOf(projectRoot: string, manifest: RunManifest): Promise<string | undefined> {
  try {
    const stored = manifest.provenance?.files[0];
    const text = stored ? await new BlobStore(projectRoot).get(stored.hash) : await readFile(join(projectRoot, manifest.prompt.path), 'utf8');
    // The project's own frontmatter reader, so what loads as a prompt gives its key here too.
    const { data } = await parseFrontmatter(manifest.prompt.path, text);
    const settings = (data as { test_settings?: { experiment_key?: unknown } } | null)?.test_settings;
    return typeof settings?.experiment_key === 'string' ? settings.experiment_key : undefined;
  } catch {
    return undefined;
  }
}
