import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AgentmarkError } from '../errors/index.js';
import { realPath } from '../project/path-scope.js';
import type { LoadedPrompt, UserFilter } from '../prompt/index.js';
import { BlobStore, RunStoreError, type RunManifest } from '../store/index.js';

export interface StoredPromptOptions {
  /** The project's own filters, callable in the body as when the run loaded it. */
  filters?: Readonly<Record<string, UserFilter>>;
}

/**
 * The prompt a run was made from, loaded from the texts the run stored (`provenance.files`),
 * whatever the files in the project say today. The files are laid out again in a temporary
 * folder at their project paths, so relative imports resolve as they did, and are loaded from
 * there (the folder is gone when this returns: `render` needs no I/O). Paths in the result and
 * in render errors are the project's, not the temporary folder's.
 *
 * STORE_NO_PROVENANCE for a run made before runs kept their prompt; STORE_BLOB_MISSING when a
 * stored text is gone.
 */
export async function loadStoredPrompt(projectRoot: string, manifest: RunManifest, options: StoredPromptOptions = {}): Promise<LoadedPrompt> {
  const files = manifest.provenance?.files ?? [];
  const main = files[0];
  if (main === undefined) {
    throw new RunStoreError('STORE_NO_PROVENANCE', `run ${manifest.id} did not keep its prompt`, {
      hint: 'it was made before runs kept their prompt in .agentmark/blobs/; run the prompt again with run-experiment',
    });
  }
  const blobs = new BlobStore(projectRoot);
  const texts = await Promise.all(files.map((file) => blobs.get(file.hash)));
  // A file outside the root (an allowedPaths folder, `../shared/…`) needs room above the root.
  const depth = Math.max(0, ...files.map((file) => file.path.split('/').findIndex((part) => part !== '..')));
  const base = await mkdtemp(join(tmpdir(), 'agentmark-run-prompt-'));
  const root = join(base, ...Array.from({ length: depth }, () => 'r'));
  // Loading resolves symlinks (a temporary folder may sit behind one): either spelling maps back.
  const spellings: Array<[string, string]> = [
    [base, root],
    [realPath(base), realPath(root)],
  ];
  const toProject = (file: string): string => {
    for (const [folder, copyRoot] of spellings) if (file.startsWith(`${folder}${sep}`)) return join(projectRoot, relative(copyRoot, file));
    return file;
  };
  try {
    for (const [i, file] of files.entries()) {
      const target = resolve(root, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, texts[i] ?? '', 'utf8');
    }
    const { loadPrompt } = await import('../prompt/index.js');
    const loaded = await loadPrompt(join(root, main.path), {
      scope: { root: realPath(base), allowed: [] },
      ...(options.filters ? { filters: options.filters } : {}),
    });
    return {
      ...loaded,
      path: join(projectRoot, main.path),
      files: files.map((file) => join(projectRoot, file.path)),
      warnings: loaded.warnings.map((warning) => ({ ...warning, file: toProject(warning.file) })),
      locate: (path) => ({ ...loaded.locate(path), file: join(projectRoot, main.path) }),
      render(props) {
        try {
          return loaded.render(props);
        } catch (error) {
          if (error instanceof AgentmarkError && error.location) error.location.file = toProject(error.location.file);
          throw error;
        }
      },
    };
  } catch (error) {
    if (error instanceof AgentmarkError && error.location) error.location.file = toProject(error.location.file);
    throw error;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
