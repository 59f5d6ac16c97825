import { RunStoreError } from '../store/index.js';

/** The host and port a database URL names, for an error that must not show its password. */
export function hostAndPort(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'the database named by the store URL';
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/**
 * Connects with `connect`; a database that cannot be reached is STORE_UNREACHABLE (exit 2)
 * naming its host and port, never the URL's password. Other errors (a wrong password, an old
 * schema) pass as they are: they already say what to do.
 */
export async function reachStore<T>(url: string, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const timedOut = error instanceof Error && /timeout/i.test(error.message) && code === undefined;
    if ((code !== undefined && UNREACHABLE.has(code)) || timedOut) {
      throw new RunStoreError('STORE_UNREACHABLE', `cannot reach the store's database at ${hostAndPort(url)} (${code ?? 'connection timed out'})`, {
        hint: 'is PostgreSQL running there and reachable from this machine? check AGENTMARK_STORE_URL or "store" in agentmark.json',
      });
    }
    throw error;
  }
}
