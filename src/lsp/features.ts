import type { ServerCapabilities } from 'vscode-languageserver';
import type { ServerContext } from './server.js';

/** What the server offers beyond diagnostics (completion, hover, …), announced at initialize. */
export const featureCapabilities: ServerCapabilities = {};

/** Registers the request handlers of every feature. */
export function registerFeatures(_context: ServerContext): void {}
