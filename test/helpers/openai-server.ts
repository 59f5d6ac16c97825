import { afterEach, beforeEach } from 'vitest';
/**
 * A real HTTP server on 127.0.0.1 that speaks enough of the OpenAI API (chat completions and
 * responses, non-streaming; embeddings, see openai-embeddings.ts) for `@ai-sdk/openai` to run against it, with scripted faults. Tests
 * point the provider at `url` as its base URL; nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createBatchState, handleBatchApi, type BatchServerState } from './openai-batches.js';
import { chatCompletion, responsesResult, type Answer } from './openai-replies.js';
import { describeRequest, type OpenAIRequestInfo } from './openai-request.js';
import { embeddingsResult } from './openai-embeddings.js';
import { RateLimitBuckets, type RateLimitSettings } from '../../bench/rate-limit-bucket.js';

export type { OpenAIRequestInfo } from './openai-request.js';
export type { RateLimitSettings } from '../../bench/rate-limit-bucket.js';

interface ReplyTiming {
  /** Wait this long before answering. */
  latencyMs?: number;
}
export type OpenAIReply = ReplyTiming &
  (
    | Answer
    /** An HTTP error with OpenAI's error body; `retryAfter` (seconds) / `retryAfterMs` set the headers. */
    | { status: number; message?: string; retryAfter?: number; retryAfterMs?: number }
    /** Never answer; the request stays open until the client aborts or the server closes. */
    | { hang: true }
    /** Send the headers and half a body, then destroy the socket. */
    | { drop: true }
  );

export type OpenAIResponder = (request: OpenAIRequestInfo) => OpenAIReply | Promise<OpenAIReply>;

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** The client closed the connection before the answer was complete (abort, timeout). */
  closedEarly: boolean;
  /** When the request arrived and, if the client hung up early, when it did (`Date.now()`). */
  receivedAt: number;
  closedAt?: number;
  /** The status answered, once the answer was sent (a model call's; 429 when the rate limit refused it). */
  status?: number;
}

export interface OpenAIServer {
  /** Base URL ending in `/v1`. */
  url: string;
  requests: RecordedRequest[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Requests the client gave up on before they were answered. */
  readonly closedEarly: number;
  setHandler(responder: OpenAIResponder): void;
  /** Enforces (or with `undefined` stops enforcing) a rate limit with OpenAI's headers, from now on. */
  setRateLimit(settings: RateLimitSettings | undefined): void;
  /** Model calls refused with 429 by the rate limit. */
  readonly refused: number;
  /** The files and batches endpoints' state: uploads, jobs, scripted faults (see openai-batches.ts). */
  batches: BatchServerState;
  close(): Promise<void>;
}

export interface OpenAIServerOptions {
  /** @default echo of the last user message (or a value shaped like the requested schema) */
  handler?: OpenAIResponder;
  /** Listen on this port (to bring a "dead" server back where the client looks). @default a free port */
  port?: number;
  /**
   * A rate limit on the model calls (see bench/rate-limit-bucket.ts): answers carry
   * `x-ratelimit-*`, refusals are 429s with `retry-after`/`retry-after-ms` and OpenAI's body.
   * A request costs its answer's tokens (usage). @default none: no header is sent
   */
  rateLimit?: RateLimitSettings;
}

/** The default: answers the last user message back, or an object shaped like the schema. */
export const echoResponder: OpenAIResponder = (request) =>
  request.schema === undefined ? { text: request.lastUserText } : { object: sampleFromSchema(request.schema, request.lastUserText) };

export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  let responder = options.handler ?? echoResponder;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let closedEarly = 0;
  let nextId = 1;
  const batches = createBatchState();
  let limit = options.rateLimit === undefined ? undefined : new RateLimitBuckets(options.rateLimit, Date.now);

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '', body: {}, closedEarly: false, receivedAt: Date.now() };
    res.on('close', () => {
      inFlight -= 1;
      if (!res.writableFinished) {
        record.closedEarly = true;
        record.closedAt = Date.now();
        closedEarly += 1;
      }
    });
    if (/^\/v1\/(files|batches)(\/|\?|$)/.test(record.path)) {
      const raw = await readBody(req);
      requests.push(record);
      await handleBatchApi(batches, () => responder, req, res, raw);
      return;
    }
    try {
      record.body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error', code: 'bad_json' } });
      return;
    }
    requests.push(record);
    const path = record.path.replace(/\?.*$/, '');
    if (req.method === 'POST' && path === '/v1/embeddings') {
      record.status = 200;
      sendJson(res, 200, embeddingsResult(record.body));
      return;
    }
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/responses')) {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error', code: 'not_found' } });
      return;
    }
    const info = describeRequest(path, record.body, req.headers.authorization);
    const reply = await responder(info);
    let limitHeaders: Record<string, string> = {};
    if (limit !== undefined) {
      const decision = limit.take('status' in reply || 'hang' in reply || 'drop' in reply ? 0 : tokensOf(info, reply, path));
      if (!decision.ok) {
        record.status = decision.status;
        sendJson(res, decision.status, decision.body, decision.headers);
        return;
      }
      limitHeaders = decision.headers;
    }
    if (reply.latencyMs !== undefined) await delay(reply.latencyMs);
    if (res.destroyed) return;
    if ('hang' in reply) return;
    if ('drop' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"partial","choices":[');
      setTimeout(() => res.destroy(), 5);
      return;
    }
    if ('status' in reply) {
      const headers: Record<string, string> = {};
      if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
      if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
      const message = reply.message ?? `scripted error ${reply.status}`;
      record.status = reply.status;
      sendJson(res, reply.status, { error: { message, type: 'server_error', code: String(reply.status) } }, { ...limitHeaders, ...headers });
      return;
    }
    const id = nextId++;
    const payload = path === '/v1/responses' ? responsesResult(info, reply, id) : chatCompletion(info, reply, id);
    record.status = 200;
    sendJson(res, 200, payload, limitHeaders);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get closedEarly() {
      return closedEarly;
    },
    setHandler(next) {
      responder = next;
    },
    setRateLimit(settings) {
      if (settings === undefined) limit = undefined;
      else if (limit === undefined) limit = new RateLimitBuckets(settings, Date.now);
      else limit.set(settings);
    },
    get refused() {
      return limit?.refused ?? 0;
    },
    batches,
    close() {
      // Hanging requests would keep server.close() waiting forever; end every socket first.
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The tokens an answer's usage will count: what the rate limit's token bucket is charged. */
function tokensOf(info: OpenAIRequestInfo, reply: Answer, path: string): number {
  const payload = path === '/v1/responses' ? responsesResult(info, reply, 0) : chatCompletion(info, reply, 0);
  const usage = payload.usage as { total_tokens?: number } | undefined;
  return usage?.total_tokens ?? 0;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A value of the schema's shape: strings are `text`, numbers 0, booleans true, arrays empty. */
export function sampleFromSchema(schema: Record<string, unknown>, text: string): unknown {
  const type = Array.isArray(schema.type) ? (schema.type as unknown[])[0] : schema.type;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sampleFromSchema(value, text)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return text;
  }
}

/**
 * A fresh server for each test of the calling file (or describe block): started before each
 * test, closed after it. The returned object stands for the current test's server.
 */
export function useOpenAIServer(options: OpenAIServerOptions = {}): OpenAIServer {
  let current: OpenAIServer | undefined;
  beforeEach(async () => {
    current = await startOpenAIServer(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as OpenAIServer, {
    get(_target, key) {
      if (current === undefined) throw new Error('useOpenAIServer: the server exists only while a test runs');
      const value: unknown = Reflect.get(current, key, current);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
