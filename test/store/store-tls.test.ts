import { expect, test } from 'vitest';
import { pgTlsProxy } from '../helpers/pg-tls-proxy.js';
import { usePostgresStore } from '../helpers/store-test.js';
import { useEchoClones } from './echo-clones.js';

// The tests' PostgreSQL has no TLS: a URL asking for it (`sslmode=require`) fails its handshake.
const db = usePostgresStore('store_tls');
const clones = useEchoClones();
const { clone } = clones;


const tlsUrl = (): string => `${db.url}?sslmode=require`;
const masked = (): string => tlsUrl().replace(`:${encodeURIComponent(db.server.password)}@`, ':***@');
const where = (): string => `127.0.0.1:${db.server.port}`;
const reason = (): string => `cannot open a TLS connection to the store's database at ${where()}: the server does not support SSL connections, and the URL asks for them`;
const HINT = 'hint: drop `sslmode=require` from the store URL for a server without TLS (e.g. one on this machine), or turn on `ssl` in its postgresql.conf';

/** Our lines of stderr: `pg` itself warns (a Node warning) that it reads `sslmode=require` as verify-full. */
function ours(stderr: string): string {
  const start = stderr.search(/^(error|warning): /m);
  return start < 0 ? '' : stderr.slice(start);
}

function expectNoSecret(stderr: string): void {
  expect(stderr).not.toContain(db.server.password);
  expect(stderr).not.toContain(encodeURIComponent(db.server.password));
  expect(stderr).not.toContain('internal error');
  expect(stderr).not.toMatch(/^\s+at /m);
}

test('runs push and serve with TLS the server lacks: exit 2 naming host and port, the password masked, a hint about sslmode', async () => {
  const project = await clone();
  const made = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server: clones.server });
  expect(made.code).toBe(1);
  const expected = `error: ${masked()}: ${reason()}\n  ${HINT}\n`;
  const pushed = await project.run(['runs', 'push'], { env: { AGENTMARK_STORE_URL: tlsUrl() } });
  expect(ours(pushed.stderr)).toBe(expected);
  expect(pushed.code).toBe(2);
  expectNoSecret(pushed.stderr);
  const served = await project.run(['serve', '--port', '0'], { env: { AGENTMARK_STORE_URL: tlsUrl() } });
  expect(ours(served.stderr)).toBe(expected);
  expect(served.stdout).toBe('');
  expect(served.code).toBe(2);
  expectNoSecret(served.stderr);
}, 60_000);

test('run-experiment with TLS the server lacks goes on locally with one warning, as with a store that is down', async () => {
  const project = await clone();
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server: clones.server, env: { AGENTMARK_STORE_URL: tlsUrl() } });
  // The fixture's third row expects GAMMA: the echo fails it, so the gate fails (exit 1), as without a store.
  expect(result.code).toBe(1);
  const [id] = await project.runIds();
  expect(ours(result.stderr)).toBe(
    `warning: the team store is not available (${reason()}): the run goes on locally; upload it later with \`agentmark runs push ${id}\`\n  ${HINT}\n`,
  );
  expectNoSecret(result.stderr);
  expect(await project.results(id as string)).toHaveLength(3);
  // Nothing reached the store; the push it names uploads the run once the URL is right.
  expect(await db.storage.listRuns()).toEqual([]);
  const pushed = await project.run(['runs', 'push', id as string], { env: { AGENTMARK_STORE_URL: db.url } });
  expect(pushed.code).toBe(0);
  expect(await db.storage.getRun(id as string)).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
}, 60_000);

test('a certificate the client does not trust is STORE_TLS_FAILED with a hint about the CA; naming the CA with sslrootcert connects', async () => {
  const project = await clone();
  const proxy = await pgTlsProxy(db.server.port, project.dir);
  try {
    const through = db.url.replace(`:${db.server.port}/`, `:${proxy.port}/`);
    const made = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet'], { server: clones.server });
    expect(made.code).toBe(1);
    const [id] = await project.runIds();
    const untrusted = await project.run(['runs', 'push', id as string], { env: { AGENTMARK_STORE_URL: `${through}?sslmode=verify-full` } });
    expect(ours(untrusted.stderr)).toBe(
      `error: ${through.replace(`:${encodeURIComponent(db.server.password)}@`, ':***@')}?sslmode=verify-full: cannot open a TLS connection to the store's database at 127.0.0.1:${proxy.port}: its certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)\n` +
        "  hint: give the server's CA with `sslrootcert=<file>` in the store URL (`sslmode=verify-full` checks the certificate and its name), or add `uselibpqcompat=true&sslmode=require` to encrypt without checking it\n",
    );
    expect(untrusted.code).toBe(2);
    expectNoSecret(untrusted.stderr);
    const trusted = await project.run(['runs', 'push', id as string], { env: { AGENTMARK_STORE_URL: `${through}?sslmode=verify-full&sslrootcert=${encodeURIComponent(proxy.certFile)}` } });
    expect(trusted.stderr).not.toContain('error');
    expect(trusted.code).toBe(0);
    expect(await db.storage.getRun(id as string)).toMatchObject({ status: 'completed', integrity: { rows: 3 } });
  } finally {
    await proxy.close();
  }
}, 60_000);
