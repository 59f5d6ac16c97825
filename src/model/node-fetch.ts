import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { LightResponse } from './light-response.js';
import { requestStarting } from './request-start.js';

// Keep-alive pools shared by every call of the process, like fetch's own.
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/**
 * A `fetch` for the model providers built on node:http(s). The AI SDK only ever posts a JSON
 * body and reads the answer whole, and for that the built-in fetch (undici with web streams)
 * costs about twice the CPU per request and ~300 ms to warm up — measured 563 ms vs 271 ms per
 * 1,000 warm requests against a loopback server, which made the CLI itself the bottleneck on fast
 * servers. Anything this does not handle (a Request object, a streamed or form body) goes to the
 * built-in fetch. It behaves like fetch where the SDK looks: aborts reject with the signal's
 * reason, network failures reject with `TypeError('fetch failed')` carrying the cause's code.
 */
export const nodeFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (url === undefined || !plainBody || !/^https?:/i.test(url)) return globalThis.fetch(input, init);

  return new Promise<Response>((resolve, reject) => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    requestStarting(signal);
    const https = url.startsWith('https:') || url.startsWith('HTTPS:');
    const headers = plainHeaders(init?.headers);
    // A known length lets node send the head and the body in one write instead of chunked
    // encoding's five-part writev (measured: the largest single cost of a fast run's requests).
    if (body !== undefined && body !== null && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    }
    const request = (https ? httpsRequest : httpRequest)({
      ...targetOf(url),
      method: init?.method ?? 'GET',
      headers,
      agent: https ? httpsAgent : httpAgent,
    });
    const onAbort = (): void => {
      request.destroy();
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    const fail = (error: Error): void => {
      done();
      if (signal?.aborted) reject(abortReason(signal));
      else reject(new TypeError('fetch failed', { cause: error }));
    };
    request.on('error', fail);
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('aborted', () => fail(Object.assign(new Error('the connection closed mid-response'), { code: 'ECONNRESET' })));
      response.on('end', () => {
        if (!response.complete) return fail(Object.assign(new Error('the connection closed mid-response'), { code: 'ECONNRESET' }));
        done();
        const status = response.statusCode ?? 0;
        const payload = Buffer.concat(chunks);
        const noBody = status === 204 || status === 205 || status === 304 || payload.length === 0;
        const statusText = response.statusMessage ?? '';
        if (!String(response.headers['content-type']).includes('text/event-stream')) {
          resolve(new LightResponse(noBody ? null : payload, status, statusText, response.headers, url) as unknown as Response);
          return;
        }
        const responseHeaders = new Headers();
        const raw = response.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i] as string, raw[i + 1] as string);
        resolve(new Response(noBody ? null : payload, { status, statusText, headers: responseHeaders }));
      });
    });
    request.end(body ?? undefined);
  });
};

/** The request's headers as node:http takes them; the SDK passes a plain object, copied as is. */
function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined) return headers;
  if (init instanceof Headers || Array.isArray(init)) {
    new Headers(init).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  for (const [name, value] of Object.entries(init)) if (value !== undefined) headers[name.toLowerCase()] = String(value);
  return headers;
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

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
