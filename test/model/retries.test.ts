import { describe, expect, it, vi } from 'vitest';
import { ModelCallError } from '../../src/errors/index.js';
import { createProviderRegistry, executeModelRequest, type ExecuteOptions, type ModelRequest } from '../../src/model/index.js';
import { retryAfterMs } from '../../src/model/attempt-guard.js';
import { startOpenAIServer, useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { sendRequestsFromThread } from '../helpers/http-thread.js';

const server = useOpenAIServer();

const request: ModelRequest = {
  modelName: 'openai/gpt-4o-mini',
  kind: 'text',
  messages: [{ role: 'user', content: 'ping' }],
  settings: {},
};

/** Replies in order; the last one repeats. */
function script(...replies: OpenAIReply[]): void {
  let index = 0;
  server.setHandler(() => replies[Math.min(index++, replies.length - 1)] ?? { text: 'unreachable' });
}

function options(extra: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return {
    registry: createProviderRegistry({ baseURL: server.url, env: {} }),
    retryDelayMs: 10,
    random: () => 0.5,
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ModelCallError)) throw new Error(`expected a ModelCallError, got ${String(error)}`);
  return error;
}

// Every case runs with requests sent from the main thread and from the HTTP worker thread.
describe.each([false, true])('retries and timeouts against the loopback server (worker thread: %s)', (threaded) => {
  sendRequestsFromThread(threaded);

  it('waits out a 429 with Retry-After, then succeeds and counts the retry', async () => {
    script({ status: 429, retryAfter: 1, message: 'slow down' }, { text: 'pong' });
    const started = Date.now();
    const response = await executeModelRequest(request, options());
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(response.output).toBe('pong');
    expect(response.retries).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 (the SDK backoff) and succeeds', async () => {
    script({ status: 500 }, { text: 'pong' });
    const response = await executeModelRequest(request, options());
    expect(response.output).toBe('pong');
    expect(response.retries).toBe(1);
  });

  it('gives up on repeated 500s after maxRetries with the status and the provider message', async () => {
    script({ status: 503, message: 'overloaded', retryAfterMs: 5 });
    const error = await failure(executeModelRequest(request, options({ maxRetries: 2 })));
    expect(error.code).toBe('MODEL_SERVER_ERROR');
    expect(error.statusCode).toBe(503);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('openai/gpt-4o-mini: HTTP 503 server error: overloaded (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    script({ status: 400, message: 'bad temperature' });
    const error = await failure(executeModelRequest(request, options()));
    expect(error).toMatchObject({ code: 'MODEL_REQUEST_REJECTED', statusCode: 400, retryable: false });
    expect(error.message).toBe('openai/gpt-4o-mini: HTTP 400 request rejected: bad temperature');
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a hanging request at the timeout, retries it, then fails with MODEL_TIMEOUT', async () => {
    script({ hang: true });
    const error = await failure(executeModelRequest(request, options({ timeoutMs: 200, maxRetries: 2 })));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('openai/gpt-4o-mini: timed out after 0.2s (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
    // the timeout aborted the HTTP request itself: the server saw every socket close
    await vi.waitFor(() => expect(server.closedEarly).toBe(3), { timeout: 15_000 });
    expect(server.requests.every((r) => r.closedEarly)).toBe(true);
    expect(server.inFlight).toBe(0);
  });

  it('retries a timed-out attempt and succeeds when the next answers', async () => {
    script({ hang: true }, { text: 'pong' });
    // The answering attempt has the same timeout as the hanging one: 200 ms let a loaded machine
    // time it out too (retries: 2); a second is what the hang costs and what the answer may take.
    const response = await executeModelRequest(request, options({ timeoutMs: 1000 }));
    expect(response).toMatchObject({ output: 'pong', retries: 1 });
  });

  // How fast the abort surfaces is measured by the bench (`npm run bench -- --only bounds`); here,
  // with a call timeout far past the test's, only a prompt abort can end the call in time.
  it('does not retry the caller’s own abort and surfaces it as the abort, not a timeout', async () => {
    script({ hang: true });
    const controller = new AbortController();
    const call = failure(executeModelRequest(request, options({ signal: controller.signal, timeoutMs: 600_000 })));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 15_000 });
    controller.abort();
    const error = await call;
    expect(error).toMatchObject({ code: 'MODEL_ABORTED', retryable: false });
    expect(server.requests).toHaveLength(1);
    await vi.waitFor(() => expect(server.closedEarly).toBe(1), { timeout: 15_000 });
  });

  // Waiting out the 30 s Retry-After would run past the test's own timeout; the bench measures
  // how fast the abort ends the wait.
  it('stops waiting out a Retry-After when the caller aborts', async () => {
    script({ status: 429, retryAfter: 30 });
    const controller = new AbortController();
    const call = failure(executeModelRequest(request, options({ signal: controller.signal })));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 15_000 });
    controller.abort();
    const error = await call;
    expect(error.code).toBe('MODEL_ABORTED');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a connection dropped mid-response', async () => {
    script({ drop: true }, { text: 'pong' });
    const response = await executeModelRequest(request, options());
    expect(response).toMatchObject({ output: 'pong', retries: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('fails with MODEL_CONNECTION_FAILED when nothing listens', async () => {
    // A port that was just listening and is now closed.
    const gone = await startOpenAIServer();
    const url = gone.url;
    await gone.close();
    const registry = createProviderRegistry({ baseURL: url, env: {} });
    const error = await failure(executeModelRequest(request, { registry, maxRetries: 1, retryDelayMs: 5 }));
    expect(error.code).toBe('MODEL_CONNECTION_FAILED');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^openai\/gpt-4o-mini: connection failed: .+ \(after 2 attempts\)$/);
  });

  it('shares one retry budget between timeouts and HTTP errors', async () => {
    script({ hang: true }, { status: 500, retryAfterMs: 5 }, { hang: true }, { text: 'too late' });
    const error = await failure(executeModelRequest(request, options({ timeoutMs: 150, maxRetries: 2 })));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(server.requests).toHaveLength(3);
  });
});

describe('retryAfterMs: the wait a server asks for, under the AI SDK rule', () => {
  // Values worked by hand from the header definitions (RFC 9110 §10.2.3; OpenAI's retry-after-ms).
  const now = Date.parse('2026-12-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '1500' }, 1000, 1500],
    [{ 'retry-after': '2' }, 1000, 2000],
    [{ 'retry-after': '0.25' }, 1000, 250],
    [{ 'retry-after': 'Tue, 01 Dec 2026 00:00:03 GMT' }, 1000, 3000],
    [{ 'retry-after-ms': '100', 'retry-after': '9' }, 1000, 100],
    [{ 'retry-after': '120' }, 1000, undefined],
    [{ 'retry-after': '120' }, 200_000, 120_000],
    [{ 'retry-after': '-1' }, 1000, undefined],
    [{ 'retry-after': 'soon' }, 1000, undefined],
    [{}, 1000, undefined],
  ])('%j with a backoff of %i ms waits %s', (headers, backoff, expected) => {
    expect(retryAfterMs(headers, backoff, now)).toBe(expected);
  });
});
