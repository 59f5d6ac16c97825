import type { RunManifest } from './types.js';

/**
 * The blobs a run refers to: the prompt's files and the config's, by hash (its provenance). Blobs
 * are shared by every run made from the same text, so removing a run removes only those of its
 * blobs no other run refers to.
 */
export function blobHashesOf(manifest: RunManifest): string[] {
  return [...new Set([...(manifest.provenance?.files ?? []), ...(manifest.provenance?.config ?? [])].map((file) => file.hash))].filter((hash) => /^[0-9a-f]{64}$/.test(hash));
}
