import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    if (!match?.[1]) return undefined;
    const { parse } = await import('yaml');
    const frontmatter: unknown = parse(match[1]);
    const settings = (frontmatter as { test_settings?: { experiment_key?: unknown } } | null)?.test_settings;
    return typeof settings?.experiment_key === 'string' ? settings.experiment_key : undefined;
  } catch {
    return undefined;
  }
}
