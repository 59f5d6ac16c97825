import type { Connection, Diagnostic } from 'vscode-languageserver';
import type { DocumentSnapshot, OpenDocuments } from './open-documents.js';
import type { ProjectState } from './project-state.js';
import { errorDiagnostic, warningDiagnostic } from './to-diagnostic.js';

/** The diagnostics of one open file: every problem validate finds there, then its warnings. */
export function diagnosticsOf(state: ProjectState, text: string, path: string): Diagnostic[] {
  const { errors, warnings } = state.problemsOf(path);
  return [...errors.map((error) => errorDiagnostic(error, text)), ...warnings.map((warning) => warningDiagnostic(warning, text))];
}

/**
 * Sends the diagnostics of every open file whose list changed, and always those of `changed`
 * (the file just edited, so a client waiting for the answer to its edit gets one). Each is placed
 * in, and carries the version of, the text the check read (`checked`): an edit that arrived during
 * the check is answered by the check it starts.
 */
export class DiagnosticsPublisher {
  private readonly sent = new Map<string, string>();

  constructor(
    private readonly connection: Connection,
    private readonly state: ProjectState,
    private readonly documents: OpenDocuments,
  ) {}

  publish(changed: string | undefined, checked: DocumentSnapshot): void {
    for (const [path, document] of checked) {
      // Closed during the check: its diagnostics were cleared when it closed.
      if (!this.documents.get(path)) continue;
      const diagnostics = diagnosticsOf(this.state, document.text, path);
      const json = JSON.stringify(diagnostics);
      if (path !== changed && this.sent.get(path) === json) continue;
      this.sent.set(path, json);
      void this.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    }
  }

  forget(path: string): void {
    this.sent.delete(path);
  }
}
