import type { IncomingMessage } from 'node:http';
import { request } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOfRun, ANNOTATIONS_FILE } from '../../src/review/index.js';
import { RunStore, openRunFolder } from '../../src/store/index.js';
import type { AgreementResponse, QueueResponse, ReviewResponse, ReviewRow } from '../../src/view/api-types.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { writeRefusal } from '../../src/view/write-guard.js';
import { REVIEW_RUN, reviewProject, reviewRows } from './review-run.js';
import { writeRun } from './synthetic-run.js';

interface Reply {
  status: number;
  body: string;
}

/** A raw request: Host, Origin and every header exactly as the test gives them. */
function send(server: ViewServer, method: string, path: string, headers: Record<string, string>, body?: string | Buffer, chunked = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // The server may close a refused write before it has read the body.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    if (chunked && body !== undefined) {
      req.write(body.slice(0, 10));
      req.end(body.slice(10));
    } else req.end(body);
  });
}

const get = (server: ViewServer, path: string): Promise<Reply> => send(server, 'GET', path, {});

async function tokenOf(server: ViewServer): Promise<string | undefined> {
  const shell = (await get(server, '/')).body;
  const match = /<meta name="agentmark-session" content="([^"]*)">/.exec(shell);
  if (!match) return undefined;
  return (JSON.parse((match[1] as string).replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { token: string }).token;
}

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let readOnly: ViewServer;
let token: string;
const labelsPath = (): string => join(project.dir, '.agentmark', 'runs', REVIEW_RUN, ANNOTATIONS_FILE);

/** A well-formed write from the served page, with any header replaced. */
function post(body: unknown, headers: Record<string, string> = {}, target = server): Promise<Reply> {
  const text = JSON.stringify(body);
  return send(target, 'POST', `/api/runs/${REVIEW_RUN}/labels`, {
    origin: `http://127.0.0.1:${target.port}`,
    'x-agentmark-token': token,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  }, text);
}

beforeAll(async () => {
  project = await reviewProject();
  let clock = Date.parse('2026-12-01T12:00:00.000Z');
  server = await startViewServer({ projectRoot: project.dir, port: 0, reviewer: 'ana', now: () => new Date(clock++) });
  readOnly = await startViewServer({ projectRoot: project.dir, port: 0, readOnly: true });
  token = (await tokenOf(server)) as string;
});

afterAll(async () => {
  await server?.close();
  await readOnly?.close();
  await project?.cleanup();
});

describe('writing labels: POST /api/runs/<id>/labels', () => {
  it('puts a fresh session token and the reviewer into the shell page, and none when read-only', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await get(server, '/')).body).toContain('&quot;reviewer&quot;:&quot;ana&quot;');
    expect(await tokenOf(readOnly)).toBeUndefined();
    const other = await startViewServer({ projectRoot: project.dir, port: 0 });
    try {
      expect(await tokenOf(other)).not.toBe(token);
    } finally {
      await other.close();
    }
  });

  it('appends one label line and answers the row\'s labels in force', async () => {
    const reply = await post({ index: 1, repeat: 0, eval: 'helpful', value: false, note: 'it dodges' });
    expect(reply.status, reply.body).toBe(200);
    expect(JSON.parse(reply.body) as ReviewRow).toEqual({
      index: 1,
      repeat: 0,
      labels: [{ eval: 'helpful', value: false, note: 'it dodges', reviewer: 'ana', at: expect.stringMatching(/^2026-12-01T12:00:00/) }],
    });
    const lines = (await readFile(labelsPath(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ index: 1, repeat: 0, eval: 'helpful', value: false, reviewer: 'ana', note: 'it dodges' });
  });

  it('refuses a cross-origin write, a write without an Origin, without the token or with a wrong one, and writes nothing', async () => {
    const before = await readFile(labelsPath(), 'utf8');
    const body = { index: 0, repeat: 0, eval: 'helpful', value: true };
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://evil.example' },
      { origin: `http://localhost:${server.port}` },
      { origin: `http://127.0.0.1:${server.port + 1}` },
      { origin: 'null' },
      { origin: '' },
      { 'x-agentmark-token': '' },
      { 'x-agentmark-token': `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}` },
    ]) {
      const reply = await post(body, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
    }
    const { origin: _origin, ...withoutOrigin } = { origin: '' };
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, { ...withoutOrigin, 'x-agentmark-token': token, 'content-type': 'application/json' }, JSON.stringify(body))).status).toBe(403);
    expect(await readFile(labelsPath(), 'utf8')).toBe(before);
  });

  it('refuses a write on a read-only viewer', async () => {
    const reply = await post({ index: 0, repeat: 0, eval: 'helpful', value: true }, {}, readOnly);
    expect(reply).toEqual({ status: 403, body: '{"error":"this viewer is read-only (started with --read-only)"}' });
  });

  it('refuses a body over 16 KB (declared or not), a body that is not JSON, and one that is not application/json', async () => {
    const big = JSON.stringify({ index: 0, repeat: 0, eval: 'helpful', value: true, note: 'x'.repeat(17_000) });
    expect((await post(JSON.parse(big))).status).toBe(413);
    const headers = { origin: `http://127.0.0.1:${server.port}`, 'x-agentmark-token': token, 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, headers, big, true)).status).toBe(413);
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, headers, '{"index": 0,', true)).status).toBe(400);
    expect((await post({ index: 0, repeat: 0, eval: 'helpful', value: true }, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('checks the label against the eval\'s score schema, as annotate does', async () => {
    expect(await post({ index: 0, repeat: 0, eval: 'tone', value: 'rude' })).toEqual({
      status: 400,
      body: JSON.stringify({ error: '"tone" is a categorical score (scores.tone in agentmark.json) with labels "kind", "curt", got "rude"' }),
    });
    expect((await post({ index: 99, repeat: 0, eval: 'helpful', value: true })).status).toBe(404);
    expect((await post({ index: 0, repeat: 0, eval: 'nope', value: true })).status).toBe(400);
    expect((await post({ index: 0, repeat: 0, eval: 'helpful' })).status).toBe(400);
  });

  it('only POST writes, and only to a run\'s labels', async () => {
    expect((await send(server, 'PUT', `/api/runs/${REVIEW_RUN}/labels`, {})).status).toBe(405);
    const headers = { origin: `http://127.0.0.1:${server.port}`, 'x-agentmark-token': token, 'content-type': 'application/json' };
    expect((await send(server, 'POST', '/api/runs/nope/labels', headers, '{}')).status).toBe(404);
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/index`, headers, '{}')).status).toBe(404);
    expect((await get(server, `/api/runs/${REVIEW_RUN}/labels`)).status).toBe(404);
  });

  it('asks for a reviewer when the viewer has none, and takes the page\'s', async () => {
    const anonymous = await startViewServer({ projectRoot: project.dir, port: 0 });
    try {
      const own = (await tokenOf(anonymous)) as string;
      const write = (body: unknown) => post(body, { origin: `http://127.0.0.1:${anonymous.port}`, 'x-agentmark-token': own }, anonymous);
      expect((await write({ index: 2, repeat: 0, eval: 'helpful', value: true })).status).toBe(400);
      const reply = await write({ index: 2, repeat: 0, eval: 'helpful', value: true, reviewer: 'bo' });
      expect((JSON.parse(reply.body) as ReviewRow).labels.map((l) => l.reviewer)).toEqual(['bo']);
      // and takes it back: a cleared line, the label gone
      expect(JSON.parse((await write({ index: 2, repeat: 0, eval: 'helpful', value: null, reviewer: 'bo' })).body)).toEqual({ index: 2, repeat: 0, labels: [] });
    } finally {
      await anonymous.close();
    }
  });

  it('loses no label when two reviewers write at once', async () => {
    const before = (await readFile(labelsPath(), 'utf8')).split('\n').length;
    const writes = [];
    for (let i = 0; i < 60; i++) writes.push(post({ index: i % 8, repeat: 0, eval: 'short', value: i % 2 === 0, reviewer: i % 2 === 0 ? 'cy' : 'di' }));
    const replies = await Promise.all(writes);
    expect(replies.map((r) => r.status)).toEqual(writes.map(() => 200));
    const lines = (await readFile(labelsPath(), 'utf8')).split('\n');
    expect(lines.length - before).toBe(60);
    for (const line of lines.filter((l) => l !== '')) JSON.parse(line);
  });
});

describe('the write checks on their own', () => {
  const message = (method: string, headers: Record<string, string>): IncomingMessage => ({ method, headers }) as unknown as IncomingMessage;
  const good = { host: '127.0.0.1:4848', origin: 'http://127.0.0.1:4848', 'x-agentmark-token': 'secret', 'content-type': 'application/json', 'content-length': '10' };

  it('passes a well-formed write', () => {
    expect(writeRefusal(message('POST', good), 'secret', 4848)).toBeUndefined();
    expect(writeRefusal(message('POST', { ...good, host: 'localhost:4848', origin: 'http://localhost:4848' }), 'secret', 4848)).toBeUndefined();
    expect(writeRefusal(message('POST', { ...good, host: '[::1]:4848', origin: 'http://[::1]:4848' }), 'secret', 4848)).toBeUndefined();
  });

  it('refuses a Host that is not loopback, even on a viewer bound to every interface', () => {
    expect(writeRefusal(message('POST', { ...good, host: '192.168.1.20:4848', origin: 'http://192.168.1.20:4848' }), 'secret', 4848)).toEqual({ status: 403, error: 'writes are accepted on a loopback address only' });
    expect(writeRefusal(message('POST', { ...good, host: 'evil.example:4848', origin: 'http://evil.example:4848' }), 'secret', 4848)?.status).toBe(403);
    expect(writeRefusal(message('POST', { ...good, host: '127.0.0.1:4849' }), 'secret', 4848)?.status).toBe(403);
  });

  it('refuses GET, another origin, https, a missing token, no token at all (read-only), a large or non-JSON body', () => {
    expect(writeRefusal(message('GET', good), 'secret', 4848)?.status).toBe(405);
    expect(writeRefusal(message('POST', { ...good, origin: 'https://127.0.0.1:4848' }), 'secret', 4848)?.status).toBe(403);
    expect(writeRefusal(message('POST', { ...good, origin: 'http://127.0.0.1:4848/x' }), 'secret', 4848)?.status).toBe(403);
    const { 'x-agentmark-token': _token, ...noToken } = good;
    expect(writeRefusal(message('POST', noToken), 'secret', 4848)?.status).toBe(403);
    expect(writeRefusal(message('POST', good), undefined, 4848)?.status).toBe(403);
    expect(writeRefusal(message('POST', { ...good, 'content-length': '16385' }), 'secret', 4848)?.status).toBe(413);
    expect(writeRefusal(message('POST', { ...good, 'content-type': 'application/x-www-form-urlencoded' }), 'secret', 4848)?.status).toBe(415);
  });
});

describe('reading labels, agreement and the review queue', () => {
  it('lists each eval\'s kind and whether a judge scores it, and every labelled row', async () => {
    const review = JSON.parse((await get(server, `/api/runs/${REVIEW_RUN}/review`)).body) as ReviewResponse;
    expect(review.evals).toEqual([
      { name: 'helpful', kind: 'boolean', judge: true },
      { name: 'short', kind: 'boolean', judge: false },
      { name: 'tone', kind: 'categorical', categories: ['kind', 'curt'], judge: true },
      { name: 'stars', kind: 'numeric', min: 0, max: 5, judge: false },
    ]);
    expect(review.rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(review.rows[1]?.labels.find((l) => l.eval === 'helpful')).toMatchObject({ value: false, reviewer: 'ana' });
  });

  it('gives agreement exactly as agentmark agreement computes it', async () => {
    const body = JSON.parse((await get(server, `/api/runs/${REVIEW_RUN}/agreement`)).body) as AgreementResponse;
    const store = new RunStore(project.dir);
    const expected = await agreementOfRun(await openRunFolder(store.runDir(REVIEW_RUN)), JSON.parse(await readFile(join(project.dir, 'agentmark.json'), 'utf8')).scores, store);
    expect(body).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(body.evals.find((e) => e.eval === 'helpful')).toMatchObject({ n: 1, confusion: { categories: ['false', 'true'], counts: [[0, 1], [0, 0]], n: 1 } });
  });

  it('answers a run that can have no label without reading its rows, as agreementOfRun would', async () => {
    const id = '20261201-090000.000-cccccc';
    await writeRun(project.dir, { id, promptPath: 'prompts/other.prompt.mdx', evalNames: ['helpful'], rows: reviewRows() });
    const store = new RunStore(project.dir);
    const expected = await agreementOfRun(await openRunFolder(store.runDir(id)), {}, store);
    expect(JSON.parse((await get(server, `/api/runs/${id}/agreement`)).body)).toEqual(expected);
    expect((JSON.parse((await get(server, `/api/runs/${id}/review`)).body) as ReviewResponse).rows).toEqual([]);
  });

  it('a run whose results file is gone answers 410 on the review routes and on a label write, naming no path', async () => {
    const id = '20261201-091000.000-dddddd';
    await writeRun(project.dir, { id, evalNames: ['helpful'], rows: reviewRows() });
    await rm(join(project.dir, '.agentmark', 'runs', id, 'results.jsonl'));
    for (const part of ['review', 'queue', 'agreement']) {
      const reply = await get(server, `/api/runs/${id}/${part}`);
      expect([part, reply.status]).toEqual([part, 410]);
      expect(reply.body).not.toContain(project.dir);
    }
    const text = JSON.stringify({ index: 0, repeat: 0, eval: 'helpful', value: true });
    const written = await send(server, 'POST', `/api/runs/${id}/labels`, {
      origin: `http://127.0.0.1:${server.port}`,
      'x-agentmark-token': token,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    }, text);
    expect(written.status).toBe(410);
    expect(written.body).not.toContain(project.dir);
  });

  it('filters the queue: judged rows, doubtful reasons, a seeded sample, disagreements', async () => {
    const queue = async (q: string): Promise<number[]> => {
      const reply = await get(server, `/api/runs/${REVIEW_RUN}/queue?${q}`);
      expect(reply.status, reply.body).toBe(200);
      return (JSON.parse(reply.body) as QueueResponse).positions;
    };
    expect(await queue('filter=judged')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await queue('filter=judged&eval=short')).toEqual([]);
    expect(await queue('filter=doubt')).toEqual([1, 4]);
    const sample = await queue('filter=sample&k=3&seed=7');
    expect(sample).toHaveLength(3);
    expect(await queue('filter=sample&k=3&seed=7')).toEqual(sample);
    expect(sample).toEqual([...sample].sort((a, b) => a - b));
    // row 1: the judge said helpful, ana said not
    expect(await queue('filter=disagree&eval=helpful')).toEqual([1]);
    for (const q of ['filter=nope', 'filter=sample&k=1e3', 'filter=judged&eval=nope', 'filter=sample&seed=-1']) {
      expect((await get(server, `/api/runs/${REVIEW_RUN}/queue?${q}`)).status, q).toBe(400);
    }
  });
});
