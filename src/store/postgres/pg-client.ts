import type { Pool, PoolClient } from 'pg';
import { RunStoreError } from '../store-error.js';

/** A pool of connections to one database; `pg` is loaded only when a store URL is in use. */
export async function createPool(url: string): Promise<Pool> {
  const { default: pg } = await import('pg');
  // Two connections: a run's stream of rows and the reads beside it; more buy nothing on one store.
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart) must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Text as an indexed column holds it: PostgreSQL's text cannot hold NUL, so `\` is written `\\` and
 * NUL `\0` (one-to-one: a lookup encodes its value the same way). Records themselves are stored as
 * their JSON text, where JSON already writes NUL as `\u0000`; these columns are only looked up.
 */
export function columnText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\0/g, '\\0');
}

/** Node's network error codes for a server that cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/**
 * A failure to connect as the typed error users see: the host and port (never the password), and
 * what to do. Other errors (a failing statement) pass through as they are.
 */
export function connectionError(error: unknown, url: string, location: string): unknown {
  const code = (error as { code?: string }).code;
  let where = location;
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}`;
  } catch {
    // keep the masked URL
  }
  const timedOut = error instanceof Error && /timeout/i.test(error.message);
  if ((code !== undefined && UNREACHABLE.has(code)) || timedOut) {
    return new RunStoreError('STORE_UNREACHABLE', `cannot reach the store's database at ${where} (${code ?? 'timed out'})`, {
      location: { file: location },
      hint: 'is PostgreSQL running there and reachable from this machine? (AGENTMARK_STORE_URL or "store" in agentmark.json names it)',
    });
  }
  const tls = tlsFailure(error, url);
  if (tls !== undefined) {
    return new RunStoreError('STORE_TLS_FAILED', `cannot open a TLS connection to the store's database at ${where}: ${tls.reason}`, {
      location: { file: location },
      hint: tls.hint,
    });
  }
  // 28P01: wrong password; 28000: no such role or not allowed; 3D000: no such database.
  if (code === '28P01' || code === '28000' || code === '3D000') {
    return new RunStoreError(code === '3D000' ? 'STORE_NO_DATABASE' : 'STORE_AUTH_FAILED', `the store's database at ${where} refused the connection: ${(error as Error).message}`, {
      location: { file: location },
      hint: code === '3D000' ? 'create the database first (createdb), then `agentmark store migrate`' : 'check the user and password (PGPASSWORD or AGENTMARK_STORE_URL in the environment or .env)',
    });
  }
  return error;
}

/** Node's TLS error codes for a certificate the client does not trust (self-signed, unknown CA, wrong name, expired). */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_/;

/**
 * Why TLS to the database failed, and what to change, or undefined for another failure. `pg` says
 * "The server does not support SSL connections" (no code) when the URL asks for TLS
 * (`sslmode=require`, `ssl=true`) of a server that has none; a certificate it does not trust is a
 * Node TLS error with its own code.
 */
function tlsFailure(error: unknown, url: string): { reason: string; hint: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: string }).code;
  if (/does not support SSL/i.test(error.message)) {
    return {
      reason: 'the server does not support SSL connections, and the URL asks for them',
      hint: `drop ${askedTls(url)} for a server without TLS (e.g. one on this machine), or turn on \`ssl\` in its postgresql.conf`,
    };
  }
  if (code !== undefined && CERTIFICATE.test(code)) {
    return {
      reason: `its certificate is not trusted (${code})`,
      hint: "give the server's CA with `sslrootcert=<file>` in the store URL (`sslmode=verify-full` checks the certificate and its name), or add `uselibpqcompat=true&sslmode=require` to encrypt without checking it",
    };
  }
  return undefined;
}

/** Where TLS was asked for, as the hint names it: the URL's `sslmode=…`/`ssl=…`, else PGSSLMODE. */
function askedTls(url: string): string {
  try {
    const params = new URL(url).searchParams;
    for (const name of ['sslmode', 'ssl']) {
      const value = params.get(name);
      if (value !== null) return `\`${name}=${value}\` from the store URL`;
    }
  } catch {
    // not a URL: name the variable
  }
  return 'PGSSLMODE from the environment (or `sslmode=` from the store URL)';
}
