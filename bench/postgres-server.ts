import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real PostgreSQL server for a test file or a bench scenario: its own data folder in a temporary folder, on a free
 * loopback port, stopped and removed by `stop`. Debian's `postgresql` package provides the
 * binaries (README: set-up; `.ci/run` installs it when missing); `AGENTMARK_PG_BIN` names another
 * folder holding initdb and postgres. initdb refuses to run as root, so as root the server runs
 * as the `postgres` user the package creates (or `nobody`), owning the temporary folder.
 */
export interface TestPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** postgres://user:password@127.0.0.1:port/<name> */
  url(database?: string): string;
  /** A new empty database (one per test keeps tests apart); returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = 'agentmark';
/** A password with characters a URL must escape: the masking and parsing both see it. */
const PASSWORD = "s3cret:p@ss/wo'rd";

export function postgresBinDir(): string {
  const given = process.env['AGENTMARK_PG_BIN'];
  if (given !== undefined && given !== '') return given;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  const found = versions[0];
  if (found === undefined) {
    throw new Error('PostgreSQL is not installed: the store tests need its server binaries (Debian: apt-get install postgresql; or set AGENTMARK_PG_BIN to the folder holding initdb and postgres)');
  }
  return join(root, found, 'bin');
}

/** The uid/gid to run the server as when this process is root (initdb will not run as root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields !== undefined) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits for the server's own "ready" line (no polling, no sleep), or its exit. */
function waitReady(child: ChildProcess, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      log.push(text);
      if (text.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`postgres exited (${code}) before it was ready:\n${log.join('')}`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-pg-'));
  const data = join(dir, 'data');
  const user = serverUser();
  const as: SpawnOptions = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const pwfile = join(dir, 'pw');
  await writeFile(pwfile, `${PASSWORD}\n`);
  if (user !== undefined) chownSync(pwfile, user.uid, user.gid);
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync'], { ...as, encoding: 'utf8', cwd: dir });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  let port = 0;
  let child: ChildProcess | undefined;
  // A port found free may be taken before the server binds it: try another.
  for (let attempt = 0; child === undefined; attempt += 1) {
    port = await freePort();
    const started = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], { ...as, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await waitReady(started, []);
      child = started;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  const server = child;
  const url = (database = 'postgres'): string => `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${database}`;
  return {
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    url,
    async createDatabase(name) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients).
        server.kill('SIGINT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
