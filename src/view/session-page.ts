import type { ReviewSession } from './api-types.js';

/** The meta element's name the app reads its ReviewSession from. */
export const SESSION_META = 'agentmark-session';

const attribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The shell page with the session (write token, reviewer) in a meta element: only a page this
 * server served can read it (another origin cannot read the page), so only it can write. A
 * read-only viewer's page has none, and shows no label controls.
 */
export function shellWithSession(shell: Buffer, session: ReviewSession | undefined): Buffer {
  if (session === undefined) return shell;
  const meta = `<meta name="${SESSION_META}" content="${attribute(JSON.stringify(session))}">`;
  return Buffer.from(shell.toString('utf8').replace('</head>', `${meta}\n</head>`), 'utf8');
}
