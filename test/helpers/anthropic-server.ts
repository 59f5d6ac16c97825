/**
 * A real HTTP server on 127.0.0.1 that speaks enough of Anthropic's API for `@ai-sdk/anthropic`
 * and the batch client: the Messages API (`POST /v1/messages`, non-streaming) and the Message
 * Batches API (create, list, retrieve, cancel, results as JSONL at `results_url`). Batches move
 * one step per poll (in_progress → ended) unless held; a cancelled one ends with its requests
 * `canceled`. Every answer comes from one responder, live or batched, so a batch answer is the
 * live one. Tests set ANTHROPIC_BASE_URL to `url`; nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The text of the last user message of a Messages API request. */
export function lastUserText(params: Record<string, unknown>): string {
  const messages = (params.messages ?? []) as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  const last = messages.filter((m) => m.role === 'user').at(-1);
  if (last === undefined) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((part) => part.text ?? '').join('');
}

/**
 * What the model answers: text, a JSON value (as the `json` tool's input when the request offers
 * that tool, else as text, as native structured output answers), or an error result (batch) /
 * HTTP error (live).
 */
export type AnthropicResponder = (params: Record<string, unknown>) => { text: string } | { json: unknown } | { error: string; status: number };

/** Whether the request asks for structured output (native `output_config.format`, or the `json` tool). */
export function wantsJson(params: Record<string, unknown>): boolean {
  const tools = (params.tools ?? []) as Array<{ name?: string }>;
  return tools.some((tool) => tool.name === 'json') || (params.output_config as { format?: unknown } | undefined)?.format !== undefined;
}

export interface AnthropicRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface AnthropicBatch {
  id: string;
  processing_status: 'in_progress' | 'canceling' | 'ended';
  requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
  created_at: string;
  cancel_initiated_at: string | null;
  results: string | null;
}

export interface AnthropicServer {
  /** Base URL ending in `/v1`. */
  url: string;
  requests: AnthropicRequest[];
  batches: AnthropicBatch[];
  /** While true, batches stay in_progress. */
  hold: boolean;
  /** Creates to accept whose answer is then lost (the connection is dropped), before answering again. */
  dropCreates: number;
  /** Creates to refuse with a 500 (nothing created), before accepting again. */
  refuseCreates: number;
  setResponder(responder: AnthropicResponder): void;
  close(): Promise<void>;
}

export const echoText: AnthropicResponder = (params) => ({ text: lastUserText(params) });

function message(params: Record<string, unknown>, reply: { text: string } | { json: unknown }, n: number): Record<string, unknown> {
  const jsonTool = ((params.tools ?? []) as Array<{ name?: string }>).some((tool) => tool.name === 'json');
  const text = 'text' in reply ? reply.text : JSON.stringify(reply.json);
  const content = 'json' in reply && jsonTool ? [{ type: 'tool_use', id: `toolu_${n}`, name: 'json', input: reply.json }] : [{ type: 'text', text }];
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: params.model,
    content,
    stop_reason: content[0]?.type === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: text.length },
  };
}

export async function startAnthropicServer(): Promise<AnthropicServer> {
  let responder: AnthropicResponder = echoText;
  let answered = 0;
  const sockets = new Set<Socket>();
  const state: AnthropicServer = {
    url: '',
    requests: [],
    batches: [],
    hold: false,
    dropCreates: 0,
    refuseCreates: 0,
    setResponder: (next) => (responder = next),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const shown = (batch: AnthropicBatch): Record<string, unknown> => {
    const count = (type: string): number => (batch.results ?? '').split('\n').filter((line) => line.includes(`"type":"${type}"`)).length;
    const ended = batch.processing_status === 'ended';
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.processing_status,
      request_counts: {
        processing: ended ? 0 : batch.requests.length,
        succeeded: count('succeeded'),
        errored: count('errored'),
        canceled: count('canceled'),
        expired: count('expired'),
      },
      created_at: batch.created_at,
      ended_at: null,
      expires_at: batch.created_at,
      cancel_initiated_at: batch.cancel_initiated_at,
      results_url: ended ? `${state.url}/messages/batches/${batch.id}/results` : null,
    };
  };
  const end = (batch: AnthropicBatch): void => {
    const lines = batch.requests.map(({ custom_id, params }) => {
      if (batch.cancel_initiated_at !== null) return { custom_id, result: { type: 'canceled' } };
      const reply = responder(params);
      if ('error' in reply) return { custom_id, result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: reply.error } } } };
      return { custom_id, result: { type: 'succeeded', message: message(params, reply, ++answered) } };
    });
    batch.results = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    batch.processing_status = 'ended';
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    state.requests.push({ method, path: url.pathname, headers: req.headers, body });
    if (req.headers['x-api-key'] === undefined || req.headers['anthropic-version'] === undefined) {
      return send(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'x-api-key and anthropic-version are required' } });
    }
    if (method === 'POST' && url.pathname === '/v1/messages') {
      const reply = responder(body);
      if ('error' in reply) return send(res, reply.status, { type: 'error', error: { type: 'invalid_request_error', message: reply.error } });
      return send(res, 200, message(body, reply, ++answered));
    }
    if (method === 'POST' && url.pathname === '/v1/messages/batches') {
      if (state.refuseCreates > 0) {
        state.refuseCreates -= 1;
        return send(res, 500, { type: 'error', error: { type: 'api_error', message: 'refused' } });
      }
      const requests = body.requests as AnthropicBatch['requests'];
      const batch: AnthropicBatch = { id: `msgbatch_${state.batches.length + 1}`, processing_status: 'in_progress', requests, created_at: new Date().toISOString(), cancel_initiated_at: null, results: null };
      state.batches.push(batch);
      if (state.dropCreates > 0) {
        state.dropCreates -= 1;
        res.socket?.destroy();
        return;
      }
      return send(res, 200, shown(batch));
    }
    if (method === 'GET' && url.pathname === '/v1/messages/batches') {
      return send(res, 200, { data: [...state.batches].reverse().map(shown), has_more: false });
    }
    const one = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(url.pathname);
    const batch = state.batches.find((b) => b.id === one?.[1]);
    if (one === null || batch === undefined) return send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${url.pathname}` } });
    if (method === 'POST' && one[2] === '/cancel') {
      if (batch.processing_status === 'in_progress') {
        batch.processing_status = 'canceling';
        batch.cancel_initiated_at = new Date().toISOString();
      }
      return send(res, 200, shown(batch));
    }
    if (method === 'GET' && one[2] === '/results') {
      if (batch.results === null) return send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'the batch has not ended' } });
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end(batch.results);
      return;
    }
    if (method === 'GET' && one[2] === undefined) {
      if (batch.processing_status === 'canceling' || (batch.processing_status === 'in_progress' && !state.hold)) end(batch);
      return send(res, 200, shown(batch));
    }
    send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${url.pathname}` } });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
