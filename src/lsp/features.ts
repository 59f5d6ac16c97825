import type { ServerCapabilities } from 'vscode-languageserver';
import { codeActions } from './code-actions.js';
import { codeLenses } from './code-lens.js';
import { complete } from './completion.js';
import { definition } from './definition.js';
import { hover } from './hover.js';
import { rename } from './rename.js';
import type { ServerContext } from './server-context.js';

/** What the server offers beyond diagnostics, announced at initialize. */
export const featureCapabilities: ServerCapabilities = {
  completionProvider: { triggerCharacters: ['.', '<', '[', ' ', '"', '/', ','] },
  hoverProvider: true,
  definitionProvider: true,
  codeActionProvider: { codeActionKinds: ['quickfix'] },
  renameProvider: true,
  codeLensProvider: { resolveProvider: false },
};

/** Registers the request handlers of every feature. */
export function registerFeatures(context: ServerContext): void {
  const { connection } = context;
  connection.onCompletion((params) => complete(context, params));
  connection.onHover((params) => hover(context, params));
  connection.onDefinition((params) => definition(context, params));
  connection.onCodeAction((params) => codeActions(context, params));
  connection.onRenameRequest((params) => rename(context, params));
  connection.onCodeLens((params) => codeLenses(context, params));
}
