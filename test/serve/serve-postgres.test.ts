import { access, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import type { AgreementResponse, RunsResponse } from '../../src/view/api-types.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { REVIEW_PROJECT, REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, tokenSecretOf, labelWith, send, startServe, type ServeProcess } from './serve-process.js';

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
    expect(JSON.stringify(rows)).not.toContain(tokenSecretOf(token));
  });

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

  it('serves the store\'s runs to a clone with no run of its own: two reviewer tokens label one run and its agreement shows both; a viewer write is 403, no token 401', async () => {
    // The run made in the first clone goes into the store through the storage contract.
    const dir = join(project.dir, '.agentmark', 'runs', REVIEW_RUN);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
    const lines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const storage = await PgStorage.connect(env['AGENTMARK_STORE_URL'] as string);
    const { integrity, ...running } = manifest;
    await storage.createRun({ ...running, status: 'running' });
    await storage.appendRows(REVIEW_RUN, 0, lines);
    await storage.complete(REVIEW_RUN, { status: 'completed', integrity: integrity as NonNullable<RunManifest['integrity']> });
    const clone = await tempProject(REVIEW_PROJECT);
    try {
      const ada = await createToken(clone.dir, 'ada2', 'reviewer', env);
      const bob = await createToken(clone.dir, 'bob2', 'reviewer', env);
      const vera = await createToken(clone.dir, 'vera', 'viewer', env);
      const server = await startServe(clone.dir, [], env);
      try {
        const runs = JSON.parse((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${ada}` })).body) as RunsResponse;
        expect(runs.runs.map((r) => [r.id, r.status, r.rows])).toEqual([[REVIEW_RUN, 'completed', 8]]);
        const rows = await send(server, 'GET', `/api/runs/${REVIEW_RUN}/rows?offset=0&limit=8`, { authorization: `Bearer ${ada}` });
        expect(rows.status).toBe(200);
        expect((await labelWith(server, ada, REVIEW_RUN, { index: 6, repeat: 0, eval: 'helpful', value: true })).status).toBe(200);
        expect((await labelWith(server, bob, REVIEW_RUN, { index: 6, repeat: 0, eval: 'helpful', value: false })).status).toBe(200);
        expect((await labelWith(server, vera, REVIEW_RUN, { index: 6, repeat: 0, eval: 'helpful', value: true })).status).toBe(403);
        expect((await labelWith(server, undefined, REVIEW_RUN, { index: 6, repeat: 0, eval: 'helpful', value: true })).status).toBe(401);
        // Revoked in the database: the next request of that token is refused.
        expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${vera}` })).status).toBe(200);
        await runCli(['tokens', 'revoke', 'vera'], { cwd: clone.dir, env });
        expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${vera}` })).status).toBe(401);
        // The route answers what `agentmark agreement <run> --format json` prints.
        const agreement = JSON.parse((await send(server, 'GET', `/api/runs/${REVIEW_RUN}/agreement`, { authorization: `Bearer ${bob}` })).body) as AgreementResponse;
        expect(JSON.stringify(agreement.reviewers)).toContain('"ada2"');
        expect(JSON.stringify(agreement.reviewers)).toContain('"bob2"');
      } finally {
        await server.stop();
      }
      const stored = await storage.readAnnotations(REVIEW_RUN);
      expect(stored.map((l) => [l.index, l.reviewer, l.value])).toEqual([[6, 'ada2', true], [6, 'bob2', false]]);
      await expect(access(join(clone.dir, '.agentmark', 'runs'))).rejects.toThrow();
    } finally {
      await storage.close();
      await clone.cleanup();
    }
  }, 60_000);
});
