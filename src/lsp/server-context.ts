import type { Connection } from 'vscode-languageserver';
import type { OpenDocuments } from './open-documents.js';
import type { ProjectState } from './project-state.js';
import type { SerialQueue } from './serial-queue.js';

/** What every feature handler reads: the buffers, the project, and the queue checks run on. */
export interface ServerContext {
  connection: Connection;
  documents: OpenDocuments;
  state: ProjectState;
  queue: SerialQueue;
  /** Resolves once the project's first load is done (handlers answer from a loaded project). */
  ready: () => Promise<void>;
}
