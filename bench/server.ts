/**
 * A lean loopback server speaking just enough of two APIs for the CLI:
 *
 * - OpenAI: chat completions (`@ai-sdk/openai` uses them whenever OPENAI_BASE_URL is set), and
 *   the files and batches endpoints of its Batch API (server-openai-batches.ts);
 * - Anthropic: the Messages API (`POST /v1/messages`, as `@ai-sdk/anthropic` calls it with
 *   ANTHROPIC_BASE_URL set) and the Message Batches API (server-anthropic-batches.ts).
 *
 * Answers are deterministic: the first number in the last user message, as `answer <n>`, so a
 * dataset row `{"input":{"q":"question 7"},"expected_output":"answer 7"}` passes `exact_match`
 * whichever way it was asked (server-reply.ts).
 *
 * It runs in the bench process; its CPU time is measured per scenario (`cpuMs`) so a report can
 * show that the server was not the bottleneck.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicBatches } from './server-anthropic-batches.js';
import { openaiBatches } from './server-openai-batches.js';
import { anthropicMessage, answerText, chatCompletion, emptyBatchStats, modelOf, parseJson, send, type BatchStats } from './server-reply.js';
import { RateLimitBuckets, type RateLimitSettings } from './rate-limit-bucket.js';

export type { BatchStats } from './server-reply.js';

export interface BenchServer {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  /** Live model answers (chat completions and Anthropic messages) since the last `reset()`. */
  readonly requests: number;
  readonly maxInFlight: number;
  /** `performance.now()` when the first request since the last `reset()` arrived. */
  readonly firstRequestAt: number | undefined;
  /** `performance.now()` when the last answer since the last `reset()` was sent. */
  readonly lastAnswerAt: number | undefined;
  /** Batch traffic per provider since the last `reset()`. */
  readonly batches: { readonly openai: BatchStats; readonly anthropic: BatchStats };
  /** Delay before every live answer (batches are not delayed). */
  latencyMs: number;
  /**
   * Enforce a rate limit on the live OpenAI answers with OpenAI's headers (rate-limit-bucket.ts),
   * from now on; undefined: none (no header is sent). A request costs `tokensPerAnswer`.
   */
  setRateLimit(settings: RateLimitSettings | undefined): void;
  /** The tokens each live answer's usage reports (prompt and completion). @default 10 */
  tokensPerAnswer: number;
  /** Live requests refused with 429 since the last `reset()`. */
  readonly refused: number;
  /** `performance.now()` of each live request the limit let through since the last `reset()`, when a limit is set. */
  readonly acceptedAt: number[];
  /** Zeroes the counters, forgets batches and files, and starts a new CPU-time window. */
  reset(): void;
  /** CPU time (user + system) of this process since the last `reset()`, in ms. */
  cpuMs(): number;
  close(): Promise<void>;
}

export async function startBenchServer(latencyMs = 0): Promise<BenchServer> {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let firstRequestAt: number | undefined;
  let lastAnswerAt: number | undefined;
  let cpuStart = process.cpuUsage();
  let stats = { openai: emptyBatchStats(), anthropic: emptyBatchStats() };
  const openai = openaiBatches(() => stats.openai);
  const anthropic = anthropicBatches(() => stats.anthropic);
  const sockets = new Set<Socket>();
  let url = '';

  const state = { latencyMs, tokensPerAnswer: 10 };
  let limit: RateLimitBuckets | undefined;
  let refused = 0;
  let acceptedAt: number[] = [];

  const server = createServer((req, res) => handle(req, res));
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    firstRequestAt ??= performance.now();
    inFlight += 1;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      if (path.startsWith('/v1/messages/batches')) {
        inFlight -= 1;
        anthropic.handle(req, res, raw.toString('utf8'), url);
        return;
      }
      if (path.startsWith('/v1/files') || path.startsWith('/v1/batches')) {
        inFlight -= 1;
        openai.handle(req, res, raw).catch((error: unknown) => send(res, 500, { error: { message: String(error), type: 'server_error' } }));
        return;
      }
      live(req, res, raw.toString('utf8'), path.startsWith('/v1/messages') ? 'anthropic' : 'openai');
    });
  }

  /** One live model call: a chat completion, or an Anthropic message. */
  function live(req: IncomingMessage, res: ServerResponse, raw: string, api: 'openai' | 'anthropic'): void {
    const body = parseJson(raw);
    const text = body === undefined ? undefined : answerText(body.messages);
    if (body === undefined || text === undefined) {
      inFlight -= 1;
      if (api === 'anthropic') send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'bench server: expected a Messages API request' } });
      else send(res, 400, { error: { message: 'bench server: expected a chat completion request', type: 'invalid_request_error' } });
      return;
    }
    if (api === 'anthropic' && (req.headers['x-api-key'] === undefined || req.headers['anthropic-version'] === undefined)) {
      inFlight -= 1;
      send(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'x-api-key and anthropic-version are required' } });
      return;
    }
    let limitHeaders: Record<string, string> | undefined;
    if (limit !== undefined && api === 'openai') {
      const decision = limit.take(state.tokensPerAnswer);
      if (!decision.ok) {
        inFlight -= 1;
        refused += 1;
        send(res, decision.status, decision.body, decision.headers);
        return;
      }
      limitHeaders = decision.headers;
      acceptedAt.push(performance.now());
    }
    const reply = (): void => {
      inFlight -= 1;
      requests += 1;
      lastAnswerAt = performance.now();
      if (api === 'anthropic') {
        send(res, 200, anthropicMessage(modelOf(body), text, requests));
        return;
      }
      const completion = chatCompletion(modelOf(body), text, requests);
      if (state.tokensPerAnswer !== 10) completion.usage = { prompt_tokens: state.tokensPerAnswer - 2, completion_tokens: 2, total_tokens: state.tokensPerAnswer };
      send(res, 200, completion, limitHeaders);
    };
    if (state.latencyMs > 0) setTimeout(reply, state.latencyMs);
    else reply();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}/v1`;

  return {
    url,
    get requests() {
      return requests;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get firstRequestAt() {
      return firstRequestAt;
    },
    get lastAnswerAt() {
      return lastAnswerAt;
    },
    get batches() {
      return stats;
    },
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(value: number) {
      state.latencyMs = value;
    },
    get tokensPerAnswer() {
      return state.tokensPerAnswer;
    },
    set tokensPerAnswer(value: number) {
      state.tokensPerAnswer = value;
    },
    setRateLimit(settings) {
      if (settings === undefined) limit = undefined;
      else if (limit === undefined) limit = new RateLimitBuckets(settings);
      else limit.set(settings);
    },
    get refused() {
      return refused;
    },
    get acceptedAt() {
      return acceptedAt;
    },
    reset() {
      requests = 0;
      refused = 0;
      acceptedAt = [];
      maxInFlight = inFlight;
      firstRequestAt = undefined;
      lastAnswerAt = undefined;
      stats = { openai: emptyBatchStats(), anthropic: emptyBatchStats() };
      openai.reset();
      anthropic.reset();
      cpuStart = process.cpuUsage();
    },
    cpuMs() {
      const used = process.cpuUsage(cpuStart);
      return (used.user + used.system) / 1000;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
