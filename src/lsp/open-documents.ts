import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { SourceOverlay } from '../source-overlay.js';

export function uriToPath(uri: string): string {
  return resolve(fileURLToPath(uri));
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The editor's open buffers by absolute path, and the overlay the loaders read through: an open
 * file is read from here (saved or not), every other file from disk.
 */
export class OpenDocuments implements SourceOverlay {
  private readonly byPath = new Map<string, TextDocument>();

  open(uri: string, languageId: string, version: number, text: string): TextDocument {
    const document = TextDocument.create(uri, languageId, version, text);
    this.byPath.set(uriToPath(uri), document);
    return document;
  }

  /** Applies incremental (or whole-text) changes to an open buffer. */
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): TextDocument | undefined {
    const path = uriToPath(uri);
    const document = this.byPath.get(path);
    if (!document) return undefined;
    const updated = TextDocument.update(document, changes, version);
    this.byPath.set(path, updated);
    return updated;
  }

  close(uri: string): void {
    this.byPath.delete(uriToPath(uri));
  }

  get(path: string): TextDocument | undefined {
    return this.byPath.get(path);
  }

  paths(): string[] {
    return [...this.byPath.keys()];
  }

  text(file: string): string | undefined {
    return this.byPath.get(file)?.getText();
  }

  /** The open buffers as they stand: what one check reads from its start to its end, edits arriving meanwhile or not. */
  snapshot(): DocumentSnapshot {
    const buffers = new Map<string, { uri: string; version: number; text: string }>();
    for (const [path, document] of this.byPath) buffers.set(path, { uri: document.uri, version: document.version, text: document.getText() });
    return buffers;
  }
}

/** Open buffers by absolute path, frozen at one moment. */
export type DocumentSnapshot = ReadonlyMap<string, { uri: string; version: number; text: string }>;
