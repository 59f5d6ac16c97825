import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { LoadedPrompt } from '../prompt/types.js';
import { BlobStore, fingerprintFile, type FileFingerprint, type RunProvenance } from '../store/index.js';

export interface SnapshotSources {
  projectRoot: string;
  prompt: LoadedPrompt;
  /** agentmark.json, absolute. */
  projectFile: string;
  /** The agentmark.config.* file, absolute; undefined when the project has none. */
  configFile: string | undefined;
  /** A rerun's source run: its stored files are this run's (they are in the blob store already). */
  rerunOf?: { id: string; files: FileFingerprint[] } | undefined;
}

/**
 * Keeps the text of every file the prompt loaded in the blob store (once per distinct text)
 * and fingerprints the config, for the run's manifest. The prompt's own text is the one that
 * was loaded; its components are read again here, a moment after their load.
 */
export async function snapshotRun(sources: SnapshotSources): Promise<RunProvenance> {
  const { projectRoot, prompt } = sources;
  const blobs = new BlobStore(projectRoot);
  const rerunOf = sources.rerunOf;
  const files = rerunOf ? rerunOf.files : await Promise.all(
    prompt.files.map(async (file) => {
      const text = file === prompt.path ? prompt.source : (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
      return { path: projectPath(projectRoot, file), hash: await blobs.put(text) };
    }),
  );
  const configFiles = [sources.projectFile, ...(sources.configFile === undefined ? [] : [sources.configFile])];
  const config = await Promise.all(configFiles.map((file) => fingerprintFile(projectRoot, file)));
  return { files, config, ...(rerunOf ? { rerunOf: rerunOf.id } : {}) };
}

/** Relative to the project root with `/`, as manifests write paths. */
export function projectPath(projectRoot: string, file: string): string {
  return relative(projectRoot, file).split(sep).join('/');
}
