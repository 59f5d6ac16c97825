import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunsResponse } from '../../src/view/api-types.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { EVAL_NAMES, REVIEW_PROJECT, REVIEW_RUN, reviewProject, reviewRows } from '../view/review-run.js';
import { writeRun } from '../view/synthetic-run.js';
import { createToken, tokenSecretOf, labelWith, send, startServe, type ServeProcess } from './serve-process.js';

let project: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  project = await reviewProject();
  for (const [name, role] of [['vera', 'viewer'], ['ada', 'reviewer'], ['bob', 'reviewer'], ['ci-main', 'writer'], ['root', 'admin']] as const) {
    tokens[name] = await createToken(project.dir, name, role);
  }
  server = await startServe(project.dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await project.cleanup();
});

const bearer = (name: string): Record<string, string> => ({ authorization: `Bearer ${tokens[name] as string}` });

describe('agentmark serve: accounts and roles', () => {
  it('answers 401 with no token, logging the refusal without any token', async () => {
    const reply = await send(server, 'GET', '/api/runs');
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(reply.body)).toEqual({ error: 'sign in: send "Authorization: Bearer <token>", or sign in at /sign-in' });
    expect(await server.logLine(/^serve: 401 GET \/api\/runs/)).toBe('serve: 401 GET /api/runs from 127.0.0.1: no token');
    const write = await labelWith(server, undefined, REVIEW_RUN, { index: 0, repeat: 0, eval: 'helpful', value: true });
    expect(write.status).toBe(401);
    expect(await server.logLine(/^serve: 401 POST/)).toBe(`serve: 401 POST /api/runs/${REVIEW_RUN}/labels from 127.0.0.1: no token`);
  });

  it('a viewer token reads every route; its label write gets 403, logged with its name and not its token', async () => {
    const runs = await send(server, 'GET', '/api/runs', bearer('vera'));
    expect(runs.status).toBe(200);
    expect((JSON.parse(runs.body) as RunsResponse).runs.map((r) => r.id)).toEqual([REVIEW_RUN]);
    expect((await send(server, 'GET', `/api/runs/${REVIEW_RUN}/rows?offset=0&limit=2`, bearer('vera'))).status).toBe(200);
    const write = await labelWith(server, tokens['vera'], REVIEW_RUN, { index: 0, repeat: 0, eval: 'helpful', value: true });
    expect(write.status).toBe(403);
    expect(JSON.parse(write.body)).toEqual({ error: 'the viewer role may not label' });
    expect(await server.logLine(/^serve: 403/)).toBe(`serve: 403 POST /api/runs/${REVIEW_RUN}/labels from 127.0.0.1: vera (viewer) may not label`);
    // A writer pushes runs (CI); it does not label either.
    expect((await labelWith(server, tokens['ci-main'], REVIEW_RUN, { index: 0, repeat: 0, eval: 'helpful', value: true })).status).toBe(403);
  });

  it('a wrong or revoked token is 401; the log never holds a token', async () => {
    const wrong = `${(tokens['ada'] as string).slice(0, -1)}${(tokens['ada'] as string).endsWith('A') ? 'B' : 'A'}`;
    expect((await send(server, 'GET', '/api/runs', { authorization: `Bearer ${wrong}` })).status).toBe(401);
    expect((await send(server, 'GET', '/api/runs', { authorization: 'Basic eDp5' })).status).toBe(401);
    for (const token of [...Object.values(tokens), wrong]) expect(server.stderr()).not.toContain(tokenSecretOf(token));
  });

  it('two reviewer tokens label the same run, each as its own name whatever the body says; agreement shows both reviewers', async () => {
    const ada = await labelWith(server, tokens['ada'], REVIEW_RUN, { index: 1, repeat: 0, eval: 'helpful', value: false, reviewer: 'mallory' });
    expect(ada.status).toBe(200);
    const bob = await labelWith(server, tokens['bob'], REVIEW_RUN, { index: 1, repeat: 0, eval: 'helpful', value: true });
    expect(bob.status).toBe(200);
    const labels = (JSON.parse(bob.body) as { labels: Array<{ reviewer: string; value: unknown }> }).labels;
    expect(labels.map((l) => [l.reviewer, l.value]).sort()).toEqual([['ada', false], ['bob', true]]);
    // The admin may label too.
    expect((await labelWith(server, tokens['root'], REVIEW_RUN, { index: 2, repeat: 0, eval: 'helpful', value: true })).status).toBe(200);
    const agreement = await runCli(['agreement', REVIEW_RUN, '--format', 'json'], { cwd: project.dir });
    expect(agreement.code).toBe(0);
    const report = JSON.parse(agreement.stdout) as { reviewers: unknown[] };
    expect(JSON.stringify(report.reviewers)).toContain('"ada"');
    expect(JSON.stringify(report.reviewers)).toContain('"bob"');
    expect(agreement.stdout).not.toContain('mallory');
  });

  it('without a team store, a writer\'s push lands in the project\'s runs folder, which the server then lists', async () => {
    const other = await tempProject(REVIEW_PROJECT);
    try {
      const id = '20261202-030000.000-ffffff';
      await writeRun(other.dir, { id, evalNames: EVAL_NAMES, rows: reviewRows() });
      const pushed = await runCli(['runs', 'push', id, '--to', server.url], { cwd: other.dir, env: { AGENTMARK_TOKEN: tokens['ci-main'] as string } });
      expect([pushed.code, pushed.stdout]).toEqual([0, `pushed ${id}: 8 rows to ${server.url.slice(0, -1)}\n`]);
      const runs = JSON.parse((await send(server, 'GET', '/api/runs', bearer('vera'))).body) as RunsResponse;
      expect(runs.runs.map((r) => [r.id, r.status, r.rows])).toEqual([[id, 'completed', 8], [REVIEW_RUN, 'completed', 8]]);
      const check = await runCli(['store', 'check'], { cwd: project.dir });
      expect(check.code).toBe(0);
    } finally {
      await other.cleanup();
    }
  });

  it('keeps the Host check: a page that points its own name at this server is refused', async () => {
    const reply = await send(server, 'GET', '/api/runs', { ...bearer('vera'), host: `evil.example:${server.port}` });
    expect(reply.status).toBe(403);
    expect(reply.body).toBe('forbidden: unexpected Host header\n');
  });
});
