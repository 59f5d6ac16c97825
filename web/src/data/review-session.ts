import type { ReviewSession } from '../api.js';

/** The session the served shell page carries (src/view/session-page.ts); none in a report or a read-only viewer. */
export function readSession(): ReviewSession | undefined {
  const meta = document.querySelector('meta[name="agentmark-session"]');
  const content = meta?.getAttribute('content');
  if (!content) return undefined;
  try {
    const session = JSON.parse(content) as ReviewSession;
    return typeof session.token === 'string' ? session : undefined;
  } catch {
    return undefined;
  }
}

const NAME_KEY = 'agentmark-reviewer';

/** The reviewer this page labels as: the server's, else the name given once on this machine. */
export function reviewerName(): string | undefined {
  const fromServer = readSession()?.reviewer;
  if (fromServer !== undefined) return fromServer;
  return localStorage.getItem(NAME_KEY) ?? undefined;
}

export function rememberReviewer(name: string): void {
  localStorage.setItem(NAME_KEY, name.trim());
}
