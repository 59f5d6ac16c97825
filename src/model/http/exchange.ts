import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';

/** One HTTP request as our fetch sends it: a plain body, headers already lower-cased. */
export interface ExchangeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** The whole answer: what a fetch Response is built from. */
export interface ExchangeAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /**
   * Name, value, name, value… as received: repeated headers stay apart. Only a streamed answer
   * (text/event-stream) reads them; the HTTP thread sends them for those alone.
   */
  rawHeaders?: string[];
  payload: Uint8Array;
}

/** How an exchange failed: a network error's message and code (ECONNREFUSED, ECONNRESET…). */
export interface ExchangeFailure {
  message: string;
  code: string | undefined;
  /** The error itself, in the thread it happened in (it does not cross to another thread). */
  error?: Error;
}

// Keep-alive pools shared by every exchange of the thread, like fetch's own.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/**
 * Sends one request with node:http(s) and reads the answer whole. `done` is called once, with
 * the answer or the failure; the returned function abandons the exchange (no callback after it).
 * A request goes out when `send` is called: callers send the requests of one event-loop turn
 * together (see node-fetch.ts).
 */
export function exchange(request: ExchangeRequest, done: (answer: ExchangeAnswer | undefined, failure?: ExchangeFailure) => void): { send(): void; cancel(): void } {
  const https = request.url.startsWith('https:') || request.url.startsWith('HTTPS:');
  const headers = request.headers;
  const body = request.body;
  // A known length lets node send the head and the body in one write instead of chunked
  // encoding's five-part writev (measured: the largest single cost of a fast run's requests).
  if (body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  }
  let finished = false;
  const finish = (answer: ExchangeAnswer | undefined, failure?: ExchangeFailure): void => {
    if (finished) return;
    finished = true;
    done(answer, failure);
  };
  const fail = (error: Error & { code?: unknown }): void => finish(undefined, { message: error.message, code: typeof error.code === 'string' ? error.code : undefined, error });
  const outgoing = (https ? httpsRequest : httpRequest)({
    ...targetOf(request.url),
    method: request.method,
    headers,
    agent: https ? httpsAgent : httpAgent,
  });
  outgoing.on('error', fail);
  outgoing.on('response', (response: IncomingMessage) => {
    const chunks: Buffer[] = [];
    const cut = (): void => fail(Object.assign(new Error('the connection closed mid-response'), { code: 'ECONNRESET' }));
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', fail);
    response.on('aborted', cut);
    response.on('end', () => {
      if (!response.complete) return cut();
      finish({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: response.headers,
        rawHeaders: response.rawHeaders,
        payload: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
      });
    });
  });
  return {
    send() {
      if (!outgoing.destroyed) outgoing.end(body);
    },
    cancel() {
      finished = true;
      outgoing.destroy();
    },
  };
}

/** Parsed once per URL: a run posts to one or two URLs thousands of times. */
const targets = new Map<string, ReturnType<typeof urlToHttpOptions>>();

function targetOf(url: string): ReturnType<typeof urlToHttpOptions> {
  let target = targets.get(url);
  if (target === undefined) {
    target = urlToHttpOptions(new URL(url));
    if (targets.size >= 64) targets.clear();
    targets.set(url, target);
  }
  return target;
}
