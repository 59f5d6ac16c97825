import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/store/postgres/pg-storage.js';
import type { RunManifest } from '../../src/store/types.js';
import type { RunsResponse } from '../../src/view/api-types.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { EVAL_NAMES, REVIEW_PROJECT, REVIEW_RUN, reviewProject, reviewRows } from '../view/review-run.js';
import { writeRun } from '../view/synthetic-run.js';
import { createToken, tokenSecretOf, send, startServe, type ServeProcess } from './serve-process.js';

let pg: TestPostgres;
let url: string;
let storage: PgStorage;
/** The clone that made the run: no store of its own, it pushes to the server. */
let made: { dir: string; cleanup: () => Promise<void> };
/** The clone the server runs in, with the team store. */
let serving: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  pg = await startPostgres();
  url = await pg.createDatabase('serve_push');
  storage = await PgStorage.connect(url, { migrate: true });
  made = await reviewProject();
  serving = await tempProject(REVIEW_PROJECT);
  for (const [name, role] of [['vera', 'viewer'], ['ada', 'reviewer'], ['ci-main', 'writer'], ['root', 'admin']] as const) {
    tokens[name] = await createToken(serving.dir, name, role, { AGENTMARK_STORE_URL: url });
  }
  server = await startServe(serving.dir, [], { AGENTMARK_STORE_URL: url });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await storage?.close();
  await made?.cleanup();
  await serving?.cleanup();
  await pg?.stop();
});

const bearer = (name: string): Record<string, string> => ({ authorization: `Bearer ${tokens[name] as string}` });
const json = (name: string | undefined, body: unknown): Record<string, string> => ({
  ...(name === undefined ? {} : bearer(name)),
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(JSON.stringify(body))),
});
const push = (token: string | undefined): ReturnType<typeof runCli> =>
  runCli(['runs', 'push', REVIEW_RUN, '--to', server.url], { cwd: made.dir, env: token === undefined ? {} : { AGENTMARK_TOKEN: token } });

describe('agentmark serve: a writer pushes runs over HTTP', () => {
  it('runs push --to <server> with a writer token stores the run completed (8 rows), which the server then lists; pushing again keeps one copy', async () => {
    const first = await push(tokens['ci-main']);
    expect([first.code, first.stdout]).toEqual([0, `pushed ${REVIEW_RUN}: 8 rows to ${server.url.slice(0, -1)}\n`]);
    const stored = await storage.getRun(REVIEW_RUN);
    expect([stored?.status, await storage.rowCount(REVIEW_RUN)]).toEqual(['completed', 8]);
    const local = JSON.parse(await readFile(join(made.dir, '.agentmark', 'runs', REVIEW_RUN, 'manifest.json'), 'utf8')) as RunManifest;
    expect(stored?.integrity).toEqual(local.integrity);
    const runs = JSON.parse((await send(server, 'GET', '/api/runs', bearer('vera'))).body) as RunsResponse;
    expect(runs.runs.map((r) => [r.id, r.status, r.rows])).toEqual([[REVIEW_RUN, 'completed', 8]]);
    const again = await push(tokens['ci-main']);
    expect([again.code, again.stdout]).toEqual([0, `${REVIEW_RUN}: already in ${server.url.slice(0, -1)} (8 rows)\n`]);
    expect(await storage.rowCount(REVIEW_RUN)).toBe(8);
  });

  it('a push needs a writer (or admin) token: none is a usage error before any request, a viewer\'s or a reviewer\'s is refused with 403', async () => {
    const none = await push(undefined);
    expect([none.code, none.stderr]).toEqual([2, 'error: runs push --to needs a writer token in AGENTMARK_TOKEN\n  hint: make one with `agentmark tokens create --name ci-main --role writer` and set AGENTMARK_TOKEN to it\n']);
    const viewer = await push(tokens['vera']);
    expect([viewer.code, viewer.stderr]).toEqual([2, `error: ${server.url.slice(0, -1)} refused the push (403): the viewer role may not push\n  hint: a push needs a token of the writer (or admin) role\n`]);
    expect(await server.logLine(/^serve: 403 GET \/api\/store/)).toBe(`serve: 403 GET /api/store/runs/${REVIEW_RUN} from 127.0.0.1: vera (viewer) may not push`);
    const manifest = { id: '20261202-000000.000-bbbbbb' };
    expect((await send(server, 'POST', '/api/store/runs', json(undefined, manifest), JSON.stringify(manifest))).status).toBe(401);
    expect((await send(server, 'POST', '/api/store/runs', json('ada', manifest), JSON.stringify(manifest))).status).toBe(403);
    expect((await send(server, 'GET', `/api/store/runs/${REVIEW_RUN}`)).status).toBe(401);
    expect(await storage.getRun(manifest.id)).toBeUndefined();
  });

  it('the store checks count + sha256 before completed: rows that do not match the record sent leave the run running (409 with the store\'s error)', async () => {
    const id = '20261202-010000.000-cccccc';
    const local = JSON.parse(await readFile(join(made.dir, '.agentmark', 'runs', REVIEW_RUN, 'manifest.json'), 'utf8')) as RunManifest;
    const lines = (await readFile(join(made.dir, '.agentmark', 'runs', REVIEW_RUN, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const { integrity, ...rest } = local;
    const manifest = { ...rest, id, status: 'running' };
    expect((await send(server, 'POST', '/api/store/runs', json('ci-main', manifest), JSON.stringify(manifest))).status).toBe(201);
    const rows = `${lines.slice(0, 7).join('\n')}\n`;
    const sent = await send(server, 'POST', `/api/store/runs/${id}/rows?from=0`, { ...bearer('ci-main'), 'content-type': 'application/x-ndjson', 'content-length': String(Buffer.byteLength(rows)) }, rows);
    expect([sent.status, JSON.parse(sent.body)]).toEqual([200, { added: 7, rows: 7 }]);
    // The same batch again (a retry after a lost answer) is stored once.
    const retried = await send(server, 'POST', `/api/store/runs/${id}/rows?from=0`, { ...bearer('ci-main'), 'content-type': 'application/x-ndjson', 'content-length': String(Buffer.byteLength(rows)) }, rows);
    expect(JSON.parse(retried.body)).toEqual({ added: 0, rows: 7 });
    const patch = { patch: { status: 'completed', integrity } };
    const refused = await send(server, 'POST', `/api/store/runs/${id}/complete`, json('ci-main', patch), JSON.stringify(patch));
    expect(refused.status).toBe(409);
    expect((JSON.parse(refused.body) as { code: string }).code).toBe('STORE_RESULTS_MISMATCH');
    expect((await storage.getRun(id))?.status).toBe('running');
  });

  it('a push killed part-way (rows stored, the run left running) is finished by pushing again: the rest sent, the run completed with exactly its rows', async () => {
    const id = '20261202-020000.000-eeeeee';
    await writeRun(made.dir, { id, evalNames: EVAL_NAMES, rows: reviewRows() });
    const dir = join(made.dir, '.agentmark', 'runs', id);
    const local = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
    const lines = (await readFile(join(dir, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    // What a push killed after its first batch leaves: the run created running, five rows stored.
    const { integrity: _integrity, ...rest } = local;
    const manifest = { ...rest, status: 'running' };
    expect((await send(server, 'POST', '/api/store/runs', json('ci-main', manifest), JSON.stringify(manifest))).status).toBe(201);
    const rows = `${lines.slice(0, 5).join('\n')}\n`;
    expect((await send(server, 'POST', `/api/store/runs/${id}/rows?from=0`, { ...bearer('ci-main'), 'content-type': 'application/x-ndjson', 'content-length': String(Buffer.byteLength(rows)) }, rows)).status).toBe(200);
    const again = await runCli(['runs', 'push', id, '--to', server.url], { cwd: made.dir, env: { AGENTMARK_TOKEN: tokens['root'] as string } });
    expect([again.code, again.stdout]).toEqual([0, `pushed ${id}: 8 rows (3 sent now, the rest by an earlier push) to ${server.url.slice(0, -1)}\n`]);
    expect([(await storage.getRun(id))?.status, await storage.rowCount(id), (await storage.getRun(id))?.integrity]).toEqual(['completed', 8, local.integrity]);
  });
});

describe('agentmark serve: an admin manages tokens over HTTP', () => {
  it('lists, creates and revokes tokens; a made token works at once and stops at its revocation', async () => {
    const listed = await send(server, 'GET', '/api/tokens', bearer('root'));
    expect(listed.status).toBe(200);
    const before = (JSON.parse(listed.body) as { tokens: Array<Record<string, unknown>> }).tokens;
    expect(before.map((t) => [t['name'], t['role']])).toEqual([['vera', 'viewer'], ['ada', 'reviewer'], ['ci-main', 'writer'], ['root', 'admin']]);
    expect(listed.body).not.toContain('scrypt');
    const body = { name: 'ci-nightly', role: 'writer' };
    const made = await send(server, 'POST', '/api/tokens', json('root', body), JSON.stringify(body));
    expect(made.status).toBe(201);
    const answer = JSON.parse(made.body) as { token: string; id: string; name: string; role: string };
    expect([answer.name, answer.role, /^amk_[0-9a-f]{16}_/.test(answer.token)]).toEqual(['ci-nightly', 'writer', true]);
    expect(server.stderr()).not.toContain(tokenSecretOf(answer.token));
    expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${answer.token}` })).status).toBe(200);
    const twice = await send(server, 'POST', '/api/tokens', json('root', body), JSON.stringify(body));
    expect([twice.status, (JSON.parse(twice.body) as { code: string }).code]).toEqual([409, 'USAGE_TOKEN_EXISTS']);
    const badRole = { name: 'x', role: 'owner' };
    const bad = await send(server, 'POST', '/api/tokens', json('root', badRole), JSON.stringify(badRole));
    expect([bad.status, (JSON.parse(bad.body) as { code: string }).code]).toEqual([400, 'USAGE_BAD_ROLE']);
    const revoked = await send(server, 'DELETE', `/api/tokens/${answer.id}`, bearer('root'));
    expect(revoked.status).toBe(200);
    expect(typeof (JSON.parse(revoked.body) as { revoked: { revokedAt?: string } }).revoked.revokedAt).toBe('string');
    expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${answer.token}` })).status).toBe(401);
    expect((await send(server, 'DELETE', `/api/tokens/${answer.id}`, bearer('root'))).status).toBe(404);
    // The CLI sees the same tokens.
    const cli = await runCli(['tokens', 'list', '--format', 'json'], { cwd: serving.dir, env: { AGENTMARK_STORE_URL: url } });
    const names = (JSON.parse(cli.stdout) as { tokens: Array<{ name: string; revokedAt?: string }> }).tokens.map((t) => [t.name, t.revokedAt !== undefined]);
    expect(names).toEqual([['vera', false], ['ada', false], ['ci-main', false], ['root', false], ['ci-nightly', true]]);
  });

  it('every token route is 401 without a token and 403 for a role that is not admin', async () => {
    const body = { name: 'sneaky', role: 'admin' };
    for (const [method, path, payload] of [['GET', '/api/tokens', undefined], ['POST', '/api/tokens', body], ['DELETE', '/api/tokens/0123456789abcdef', undefined]] as const) {
      const text = payload === undefined ? undefined : JSON.stringify(payload);
      const headers = (name?: string): Record<string, string> => (text === undefined ? (name === undefined ? {} : bearer(name)) : json(name, payload));
      expect((await send(server, method, path, headers(), text)).status).toBe(401);
      for (const name of ['vera', 'ada', 'ci-main']) {
        const reply = await send(server, method, path, headers(name), text);
        expect([name, reply.status]).toEqual([name, 403]);
      }
    }
    expect(await server.logLine(/DELETE .*ci-main \(writer\) may not manage tokens/)).toBe('serve: 403 DELETE /api/tokens/0123456789abcdef from 127.0.0.1: ci-main (writer) may not manage tokens');
    expect((await storage.pool.query('SELECT 1 FROM agentmark_tokens WHERE name = $1', ['sneaky'])).rowCount).toBe(0);
  });
});
