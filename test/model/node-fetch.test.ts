import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFetch, useHttpThread, sendingFromThread, warmHttpThread } from '../../src/model/node-fetch.js';
import { sendRequestsFromThread } from '../helpers/http-thread.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler;

beforeEach(async () => {
  handler = (_req, _body, res) => res.end('ok');
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function readAll(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (body === null) return '<null>';
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  await reader.cancel();
  reader.releaseLock();
  return Buffer.concat(parts).toString('utf8');
}

// Every case runs with requests sent from the main thread and from the HTTP worker thread.
describe.each([false, true])('nodeFetch (worker thread: %s)', (threaded) => {
  sendRequestsFromThread(threaded);

  it('posts the body with the headers of a plain object, lower-cased', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    handler = (req, body, res) => {
      seen = { method: req.method, headers: req.headers, body };
      res.end('{}');
    };
    await nodeFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer k' }, body: '{"a":1}' });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"a":1}');
    expect(seen.headers?.['content-type']).toBe('application/json');
    expect(seen.headers?.authorization).toBe('Bearer k');
  });

  it('takes headers given as a Headers object or as pairs', async () => {
    const seen: (string | undefined)[] = [];
    handler = (req, _body, res) => {
      seen.push(String(req.headers['x-test']));
      res.end();
    };
    await nodeFetch(url, { headers: new Headers({ 'X-Test': 'one' }) });
    await nodeFetch(url, { headers: [['X-Test', 'two']] });
    expect(seen).toEqual(['one', 'two']);
  });

  it('answers with what the SDK reads: status, ok, headers, a one-chunk body reader', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json', 'X-Request-Id': 'r1', 'Set-Cookie': ['a=1', 'b=2'] });
      res.end('{"answer":42}');
    };
    const response = await nodeFetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('X-REQUEST-ID')).toBe('r1');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(response.headers.get('missing')).toBeNull();
    expect(response.headers.has('x-request-id')).toBe(true);
    const all = Object.fromEntries([...response.headers]);
    expect(all['x-request-id']).toBe('r1');
    expect(all['content-type']).toBe('application/json');
    const forEach: string[] = [];
    response.headers.forEach((value, name) => forEach.push(`${name}=${value}`));
    expect(forEach).toContain('x-request-id=r1');
    expect(response.bodyUsed).toBe(false);
    expect(await readAll(response.body)).toBe('{"answer":42}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('reads the body as text, json or bytes', async () => {
    handler = (_req, _body, res) => res.end('{"é":[1,2]}');
    expect(await (await nodeFetch(url)).text()).toBe('{"é":[1,2]}');
    expect(await (await nodeFetch(url)).json()).toEqual({ é: [1, 2] });
    const bytes = new Uint8Array(await (await nodeFetch(url)).arrayBuffer());
    expect(Buffer.from(bytes).toString('utf8')).toBe('{"é":[1,2]}');
  });

  it('reports an error status as not ok and a bodiless answer as a null body', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(429, { 'Retry-After': '2' });
      res.end();
    };
    const response = await nodeFetch(url);
    expect(response.ok).toBe(false);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('gives a streamed answer a real Response', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end('data: {"x":1}\n\n');
    };
    const response = await nodeFetch(url);
    expect(response).toBeInstanceOf(Response);
    expect(await response.text()).toBe('data: {"x":1}\n\n');
  });

  it('rejects with the signal’s reason when aborted mid-request', async () => {
    const controller = new AbortController();
    // Never answers; aborted once the server holds the request (mid-request, not before it is sent).
    handler = () => controller.abort(new Error('stop now'));
    const pending = nodeFetch(url, { signal: controller.signal });
    await expect(pending).rejects.toThrow('stop now');
  });

  it('rejects at once when the signal is already aborted', async () => {
    await expect(nodeFetch(url, { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow('too late');
  });

  it('rejects a dropped connection as fetch does: TypeError("fetch failed") with the cause’s code', async () => {
    handler = (req) => req.socket.destroy();
    const error = await nodeFetch(url).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNRESET');
  });

  it('never sends a request aborted before the end of the turn it was made in', async () => {
    let seen = 0;
    handler = (_req, _body, res) => {
      seen += 1;
      res.end('{}');
    };
    const controller = new AbortController();
    const dropped = nodeFetch(url, { method: 'POST', body: '{"n":1}', signal: controller.signal });
    controller.abort(new Error('changed my mind'));
    await expect(dropped).rejects.toThrow('changed my mind');
    // A later request is answered, and it is the only one the server saw.
    expect(await (await nodeFetch(url, { method: 'POST', body: '{"n":2}' })).text()).toBe('{}');
    expect(seen).toBe(1);
  });

  it('rejects a request node cannot build (a header with a newline) and goes on sending others', async () => {
    handler = (_req, _body, res) => res.end('fine');
    await expect(nodeFetch(url, { headers: { 'X-Bad': 'a\nb' } })).rejects.toThrow();
    expect(await (await nodeFetch(url)).text()).toBe('fine');
    expect(sendingFromThread()).toBe(threaded);
  });

  it('answers each of the many requests made in one turn with its own answer', async () => {
    handler = (_req, body, res) => res.end(`echo ${body}`);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => nodeFetch(url, { method: 'POST', body: String(i) }).then((r) => r.text())));
    expect(answers).toEqual(Array.from({ length: 30 }, (_, i) => `echo ${i}`));
  });
});

describe('the HTTP worker thread', () => {
  it('a thread started ahead of a run (warmHttpThread) is the one the run sends from', async () => {
    warmHttpThread();
    // No run has asked for it yet: requests still go out from the main thread.
    expect(sendingFromThread()).toBe(false);
    const release = useHttpThread();
    try {
      expect(sendingFromThread()).toBe(true);
      handler = (_req, body, res) => res.end(`warm ${body}`);
      expect(await (await nodeFetch(url, { method: 'POST', body: '1' })).text()).toBe('warm 1');
      expect(sendingFromThread()).toBe(true);
    } finally {
      release();
    }
  });

  it('rows whose answers come back together after a slow round each get their own answer, round after round', async () => {
    // A slow model (30 ms): each round's answers reach the thread together, after a wait, and
    // are handed over one row at a time, each row sending its next request before the next answer.
    handler = (_req, body, res) => void setTimeout(() => res.end(`echo ${body}`), 30);
    const release = useHttpThread();
    try {
      const chain = async (row: number): Promise<string[]> => {
        const answers: string[] = [];
        for (let round = 0; round < 4; round += 1) answers.push(await (await nodeFetch(url, { method: 'POST', body: `${row}.${round}` })).text());
        return answers;
      };
      const rows = await Promise.all(Array.from({ length: 20 }, (_, row) => chain(row)));
      expect(rows).toEqual(Array.from({ length: 20 }, (_, row) => [0, 1, 2, 3].map((round) => `echo ${row}.${round}`)));
      expect(sendingFromThread()).toBe(true);
    } finally {
      release();
    }
  });

  it('fails the requests in flight as a dropped connection when it stops, and later requests go out from the main thread', async () => {
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    handler = () => arrived(); // never answers
    const release = useHttpThread();
    const pending = nodeFetch(url, { method: 'POST', body: '{}' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Stopped once the server holds the request: it is in flight from the thread.
    await inFlight;
    release();
    const error = await pending;
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNRESET');
    expect(sendingFromThread()).toBe(false);
    handler = (_req, _body, res) => res.end('back');
    expect(await (await nodeFetch(url)).text()).toBe('back');
  });

  it('outlives its last run while idle, and a run that starts then reuses it, its connection too', async () => {
    const ports: Array<number | undefined> = [];
    handler = (req, _body, res) => {
      ports.push(req.socket.remotePort);
      res.end('ok');
    };
    const first = useHttpThread();
    expect(await (await nodeFetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    first();
    expect(sendingFromThread()).toBe(false);
    const second = useHttpThread();
    expect(sendingFromThread()).toBe(true);
    expect(await (await nodeFetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    second();
    expect(ports).toHaveLength(2);
    expect(ports[1]).toBe(ports[0]);
  });

  it('is shared by runs at the same time and stops when the last one is done with it', async () => {
    handler = (_req, _body, res) => res.end('ok');
    const first = useHttpThread();
    const second = useHttpThread();
    first();
    first(); // a second call of the same release changes nothing
    expect(sendingFromThread()).toBe(true);
    expect(await (await nodeFetch(url)).text()).toBe('ok');
    second();
    expect(sendingFromThread()).toBe(false);
  });
});
