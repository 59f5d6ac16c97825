import { access } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import { runCli } from '../helpers/run-cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, labelWith, send, startServe, type ServeProcess } from './serve-process.js';

let pg: TestPostgres;
let project: { dir: string; cleanup: () => Promise<void> };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase('serve_tokens');
  await (await PgStorage.connect(url, { migrate: true })).close();
  env = { AGENTMARK_STORE_URL: url };
  project = await reviewProject();
}, 120_000);
afterAll(async () => {
  await project?.cleanup();
  await pg?.stop();
});

/** A loopback port nothing listens on: one just given up by a server of ours. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('agentmark serve and tokens with a PostgreSQL store', () => {
  it('keeps the tokens in the database (hashed), not in .agentmark/tokens.json', async () => {
    const token = await createToken(project.dir, 'ci-main', 'writer', env);
    const list = await runCli(['tokens', 'list', '--format', 'json'], { cwd: project.dir, env });
    expect((JSON.parse(list.stdout) as { tokens: Array<{ name: string; role: string }> }).tokens.map((t) => [t.name, t.role])).toEqual([['ci-main', 'writer']]);
    await expect(access(join(project.dir, '.agentmark', 'tokens.json'))).rejects.toThrow();
    const storage = await PgStorage.connect(env['AGENTMARK_STORE_URL'] as string);
    const { rows } = await storage.pool.query<{ hash: string }>('SELECT hash FROM agentmark_tokens');
    await storage.close();
    expect(rows.map((r) => r.hash.startsWith('scrypt$'))).toEqual([true]);
    expect(JSON.stringify(rows)).not.toContain(token.split('_')[2]);
  });

  it('two reviewer tokens label the same run and agreement shows both; a viewer write is 403, no token 401', async () => {
    const ada = await createToken(project.dir, 'ada', 'reviewer', env);
    const bob = await createToken(project.dir, 'bob', 'reviewer', env);
    const vera = await createToken(project.dir, 'vera', 'viewer', env);
    const server: ServeProcess = await startServe(project.dir, [], env);
    try {
      expect((await labelWith(server, ada, REVIEW_RUN, { index: 3, repeat: 0, eval: 'helpful', value: true })).status).toBe(200);
      expect((await labelWith(server, bob, REVIEW_RUN, { index: 3, repeat: 0, eval: 'helpful', value: false })).status).toBe(200);
      expect((await labelWith(server, vera, REVIEW_RUN, { index: 3, repeat: 0, eval: 'helpful', value: true })).status).toBe(403);
      expect((await labelWith(server, undefined, REVIEW_RUN, { index: 3, repeat: 0, eval: 'helpful', value: true })).status).toBe(401);
      expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${vera}` })).status).toBe(200);
      // Revoked in the database: the next request of that token is refused.
      await runCli(['tokens', 'revoke', 'vera'], { cwd: project.dir, env });
      expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${vera}` })).status).toBe(401);
    } finally {
      await server.stop();
    }
    const agreement = await runCli(['agreement', REVIEW_RUN, '--format', 'json'], { cwd: project.dir, env });
    expect(agreement.code).toBe(0);
    const reviewers = JSON.stringify((JSON.parse(agreement.stdout) as { reviewers: unknown }).reviewers);
    expect(reviewers).toContain('"ada"');
    expect(reviewers).toContain('"bob"');
  }, 60_000);

  it('an unreachable database at serve: exit 2 naming host and port, never the password', async () => {
    const port = await closedPort();
    const result = await runCli(['serve', '--port', '0'], { cwd: project.dir, env: { AGENTMARK_STORE_URL: `postgres://agentmark:${encodeURIComponent(pg.password)}@127.0.0.1:${port}/x` } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain(encodeURIComponent(pg.password));
    expect(result.stderr).toBe(
      `error: postgres://agentmark:***@127.0.0.1:${port}/x: cannot reach the store's database at 127.0.0.1:${port} (ECONNREFUSED)\n` +
      '  hint: is PostgreSQL running there and reachable from this machine? (AGENTMARK_STORE_URL or "store" in agentmark.json names it)\n',
    );
  });
});
