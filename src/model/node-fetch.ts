import { LightResponse } from './light-response.js';
import { attemptOf } from './attempt-hooks.js';
import { exchange, type ExchangeAnswer, type ExchangeFailure, type ExchangeRequest } from './http/exchange.js';
import { HttpThread } from './http/http-thread.js';
import { traceStartup } from '../startup-trace.js';

/** Runs that asked for the HTTP thread and are not done with it yet. */
let users = 0;
/** The thread, started by the first request while a run wants it (a cached rerun never does). */
let thread: HttpThread | undefined;
let threadStarted = false;
/** The idle thread's close, due a moment after the last run released it (see useHttpThread). */
let idleClose: NodeJS.Timeout | undefined;

/**
 * How long an idle thread outlives the last run that used it. The CLI ends before that (the
 * thread does not hold the process), and node then stops the thread as the process exits,
 * without the worker's exit events: `terminate()` at the end of a run kept a 1,000-row run
 * alive ~0.2 s longer on a loaded machine (the worker's teardown, then its stdio streams
 * ending). A long-lived process (watch mode, the library) gets it closed, or reused by a run
 * that starts within this time.
 */
export const IDLE_THREAD_CLOSE_MS = 1_000;

/**
 * Sends requests from a worker thread (http/http-thread.ts) until the returned function is
 * called. The runner asks for it for runs of many rows; the thread starts with the first request
 * that goes out, runs at the same time share it, and it stops when the last of them is done.
 * Requests in flight then finish where they are.
 */
export function useHttpThread(): () => void {
  users += 1;
  if (idleClose !== undefined) {
    clearTimeout(idleClose);
    idleClose = undefined;
    // The idle thread serves this run too, unless it died meanwhile.
    if (thread?.alive !== true) stopThread();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users > 0) return;
    // Requests still in flight (a stopped run's) fail at once, as a dropped connection would.
    if (thread === undefined || !thread.idle) {
      stopThread();
      return;
    }
    closeWhenIdle();
  };
}

/** Closes the thread IDLE_THREAD_CLOSE_MS from now unless a run takes it first (useHttpThread). */
function closeWhenIdle(): void {
  idleClose = setTimeout(() => {
    idleClose = undefined;
    stopThread();
  }, IDLE_THREAD_CLOSE_MS);
  idleClose.unref();
}

/**
 * Starts the thread ahead of a run that will ask for it (useHttpThread), so that the worker loads
 * while the run is still getting ready rather than after its first request. Unless a run takes
 * it within IDLE_THREAD_CLOSE_MS, it is closed as an idle one is.
 */
export function warmHttpThread(): void {
  if (users > 0 || threadStarted) return;
  threadStarted = true;
  thread = HttpThread.start();
  closeWhenIdle();
}

function stopThread(): void {
  const stopping = thread;
  thread = undefined;
  threadStarted = false;
  if (stopping !== undefined) void stopping.close();
}

/** Whether requests go out from the worker thread now (or will, once the first one does). */
export function sendingFromThread(): boolean {
  return users > 0 && (!threadStarted || thread?.alive === true);
}

/** The thread for a request about to go out, started now if a run wants one; undefined if it died. */
function requestThread(): HttpThread | undefined {
  if (users === 0) return undefined;
  if (!threadStarted) {
    threadStarted = true;
    thread = HttpThread.start();
  }
  return thread?.alive ? thread : undefined;
}

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

  traceStartup('first model request');
  return new Promise<Response>((resolve, reject) => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const attempt = attemptOf(signal);
    attempt?.requestStarting();
    const request: ExchangeRequest = { url, method: init?.method ?? 'GET', headers: plainHeaders(init?.headers), body: body ?? undefined };
    const done = (answer: ExchangeAnswer | undefined, failure?: ExchangeFailure): void => {
      if (attempt !== undefined) attempt.onAbort = undefined;
      else signal?.removeEventListener('abort', onAbort);
      if (answer !== undefined) resolve(toResponse(answer, url));
      else if (signal?.aborted) reject(abortReason(signal));
      else reject(new TypeError('fetch failed', { cause: failure?.error ?? Object.assign(new Error(failure?.message ?? 'fetch failed'), { code: failure?.code }) }));
    };
    const viaThread = requestThread();
    const sending = viaThread !== undefined ? viaThread.exchange(request, done) : sendWithTurn(exchange(request, done));
    const onAbort = (): void => {
      sending.cancel();
      reject(abortReason(signal));
    };
    // An attempt guard's signal tells us through its hooks (no EventTarget listener per request).
    if (attempt !== undefined) attempt.onAbort = onAbort;
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
};

/** The fetch Response for a whole answer: a light one, or a real one for a streamed body. */
function toResponse(answer: ExchangeAnswer, url: string): Response {
  const { status, statusText, payload } = answer;
  const noBody = status === 204 || status === 205 || status === 304 || payload.length === 0;
  if (!String(answer.headers['content-type']).includes('text/event-stream')) {
    return new LightResponse(noBody ? null : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), status, statusText, answer.headers, url) as unknown as Response;
  }
  const headers = new Headers();
  const raw = answer.rawHeaders ?? [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return new Response(noBody ? null : payload, { status, statusText, headers });
}

/** Requests made in this event-loop turn, sent together at its end. */
let sends: Array<{ send(): void }> = [];

/**
 * Sends a request at the end of this turn (`setImmediate`), with every other request made in
 * it, instead of the moment its row asks. On a fast server each request sent alone found the
 * server asleep, and the write that woke it cost the sender ~60 µs against ~12 µs for writes
 * that came in a burst: 10,000 rows at 0 ms latency took 3.84 s sent one by one and 3.22 s
 * sent a turn at a time (medians of 9, same session). A request waits at most one turn.
 */
function sendWithTurn<T extends { send(): void }>(handle: T): T {
  if (sends.length === 0) {
    setImmediate(() => {
      const batch = sends;
      sends = [];
      for (const each of batch) each.send();
    });
  }
  sends.push(handle);
  return handle;
}

/** The request's headers as node:http takes them; the SDK passes a plain object, copied as is. */
function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined) return headers;
  // Iterable: a Headers or an array of pairs. Not `instanceof Headers`: that alone loads undici,
  // which a run that never meets one (the SDK passes a plain object) otherwise never does.
  if (Symbol.iterator in init) {
    new Headers(init).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  // Keys, not entries: no [name, value] array per header of every request.
  for (const name of Object.keys(init)) {
    const value = init[name];
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  return headers;
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
