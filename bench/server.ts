/**
 * A lean loopback server speaking just enough of OpenAI's chat completions API for
 * `@ai-sdk/openai` (which uses chat completions whenever OPENAI_BASE_URL is set). Answers are
 * deterministic: the first number in the last user message, as `answer <n>`, so a dataset row
 * `{"input":{"q":"question 7"},"expected_output":"answer 7"}` passes `exact_match`.
 *
 * It runs in the bench process; its CPU time is measured per scenario (`cpuMs`) so a report can
 * show that the server was not the bottleneck.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BenchServer {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  /** Completed chat-completion requests since the last `reset()`. */
  readonly requests: number;
  readonly maxInFlight: number;
  /** `performance.now()` when the first request since the last `reset()` arrived. */
  readonly firstRequestAt: number | undefined;
  /** `performance.now()` when the last answer since the last `reset()` was sent. */
  readonly lastAnswerAt: number | undefined;
  /** Delay before every answer. */
  latencyMs: number;
  /** Zeroes the counters and starts a new CPU-time window. */
  reset(): void;
  /** CPU time (user + system) of this process since the last `reset()`, in ms. */
  cpuMs(): number;
  close(): Promise<void>;
}

const CREATED = 1_700_000_000;

export async function startBenchServer(latencyMs = 0): Promise<BenchServer> {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let firstRequestAt: number | undefined;
  let lastAnswerAt: number | undefined;
  let cpuStart = process.cpuUsage();
  const sockets = new Set<Socket>();

  const state = { latencyMs };

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
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = answerFor(body);
      if (answer === undefined) {
        inFlight -= 1;
        send(res, 400, { error: { message: 'bench server: expected a chat completion request', type: 'invalid_request_error' } });
        return;
      }
      const reply = (): void => {
        inFlight -= 1;
        requests += 1;
        lastAnswerAt = performance.now();
        send(res, 200, {
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: CREATED,
          model: answer.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
        });
      };
      if (state.latencyMs > 0) setTimeout(reply, state.latencyMs);
      else reply();
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
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
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(value: number) {
      state.latencyMs = value;
    },
    reset() {
      requests = 0;
      maxInFlight = inFlight;
      firstRequestAt = undefined;
      lastAnswerAt = undefined;
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

function send(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The deterministic answer to a chat completion body, or undefined when it is not one. */
function answerFor(body: string): { model: string; text: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.messages)) return undefined;
  let lastUser = '';
  for (const message of parsed.messages as unknown[]) {
    if (isRecord(message) && message.role === 'user') lastUser = contentText(message.content);
  }
  const number = /\d+/.exec(lastUser)?.[0] ?? '0';
  return { model: typeof parsed.model === 'string' ? parsed.model : 'bench', text: `answer ${number}` };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
