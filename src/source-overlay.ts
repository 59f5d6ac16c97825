/**
 * The editor's unsaved text of project files, consulted by every loader before it reads a file
 * from disk: agentmark.json, prompts and their components, `$ref` schema files and datasets.
 * Only the language server (`agentmark lsp`, src/lsp/) sets one, for its own process, so that
 * what it reports is what `validate` would report of the buffers as they stand; every other
 * command reads the disk exactly as before.
 */
export interface SourceOverlay {
  /** The open buffer's text of an absolute path, or undefined to read the file from disk. */
  text(file: string): string | undefined;
}

let current: SourceOverlay | undefined;

/** Installs (or, with undefined, removes) the overlay every loader of this process reads through. */
export function setSourceOverlay(overlay: SourceOverlay | undefined): void {
  current = overlay;
}

/** The unsaved text of `file` when an overlay holds it. */
export function overlaidText(file: string): string | undefined {
  return current?.text(file);
}
