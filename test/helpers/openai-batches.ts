/**
 * The files and batches endpoints of the OpenAI API for the loopback server: uploads kept in
 * memory, jobs that advance one state per poll (validating → in_progress → completed) and answer
 * each request line through the server's responder, and scripted faults: a 429 on upload, an
 * expired, cancelled or failed job, partial output, a job held in progress.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatCompletion, responsesResult } from './openai-replies.js';
import { describeRequest } from './openai-request.js';
import type { OpenAIResponder } from './openai-server.js';

/** How one job ends; the job's number (0, 1, ...) in creation order picks it. */
export interface BatchPlan {
  /** @default 'completed' */
  outcome?: 'completed' | 'expired' | 'cancelled' | 'failed';
  /** With `expired` or `cancelled`: how many lines were answered before the end. @default 0 */
  answered?: number;
  /** Lines (0-based) answered but left out of the output file (a partial output). */
  missing?: number[];
  /** Why a `failed` job failed. */
  failure?: string;
}

export interface BatchServerState {
  files: Map<string, { filename: string; purpose: string; content: string }>;
  batches: Array<Record<string, unknown> & { id: string; status: string }>;
  /** Uploads to refuse with 429 before one is accepted. */
  uploadFaults: number;
  /** While true, jobs stay `in_progress`. */
  hold: boolean;
  /** Jobs numbered this or higher (0-based, creation order) stay `in_progress`, e.g. 1 holds a second round. */
  holdFrom: number;
  /** Act as a server without the Batch API: every files and batches route is a 404. */
  absent: boolean;
  plan: (jobNumber: number) => BatchPlan;
}

export function createBatchState(): BatchServerState {
  return { files: new Map(), batches: [], uploadFaults: 0, hold: false, holdFrom: Infinity, absent: false, plan: () => ({}) };
}

const CREATED = 1_700_000_000;

export async function handleBatchApi(
  state: BatchServerState,
  responder: () => OpenAIResponder,
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  if (state.absent) return send(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error', code: 'not_found' } });
  if (method === 'POST' && path === '/v1/files') {
    if (state.uploadFaults > 0) {
      state.uploadFaults -= 1;
      return send(res, 429, { error: { message: 'Too many uploads', type: 'rate_limit', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '20' });
    }
    const form = await new Response(raw, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob) || form.get('purpose') !== 'batch') return send(res, 400, { error: { message: 'file and purpose=batch needed' } });
    const id = `file-${state.files.size + 1}`;
    const filename = (file as File).name;
    state.files.set(id, { filename, purpose: 'batch', content: await file.text() });
    return send(res, 200, { id, object: 'file', bytes: file.size, created_at: CREATED, filename, purpose: 'batch' });
  }
  const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
  if (method === 'GET' && content) {
    const file = state.files.get(decodeURIComponent(content[1] as string));
    if (!file) return send(res, 404, { error: { message: 'no such file' } });
    res.writeHead(200, { 'content-type': 'application/jsonl' });
    res.end(file.content);
    return;
  }
  if (method === 'POST' && path === '/v1/batches') {
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const input = state.files.get(String(body.input_file_id));
    if (!input) return send(res, 400, { error: { message: `no file ${String(body.input_file_id)}` } });
    const lines = input.content.split('\n').filter((line) => line.trim() !== '');
    const batch = {
      id: `batch_${state.batches.length + 1}`,
      object: 'batch',
      endpoint: body.endpoint,
      input_file_id: body.input_file_id,
      completion_window: body.completion_window,
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      errors: null,
      created_at: CREATED,
      metadata: body.metadata ?? null,
      request_counts: { total: lines.length, completed: 0, failed: 0 },
      number: state.batches.length,
    };
    state.batches.push(batch);
    return send(res, 200, shown(batch));
  }
  if (method === 'GET' && path === '/v1/batches') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    return send(res, 200, { object: 'list', data: [...state.batches].reverse().slice(0, limit).map(shown), has_more: false });
  }
  const one = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  const batch = one ? state.batches.find((b) => b.id === decodeURIComponent(one[1] as string)) : undefined;
  if (one && !batch) return send(res, 404, { error: { message: 'no such batch' } });
  if (batch && method === 'POST' && one?.[2]) {
    if (['validating', 'in_progress', 'finalizing'].includes(batch.status)) batch.status = 'cancelling';
    return send(res, 200, shown(batch));
  }
  if (batch && method === 'GET' && !one?.[2]) {
    await advance(state, batch, responder());
    return send(res, 200, shown(batch));
  }
  send(res, 404, { error: { message: `no route ${method} ${path}` } });
}

/** One step per poll, so tests see every state and can hold a job in progress. */
async function advance(state: BatchServerState, batch: BatchServerState['batches'][number], responder: OpenAIResponder): Promise<void> {
  const plan = state.plan(batch.number as number);
  if (batch.status === 'validating') {
    if (plan.outcome === 'failed') {
      batch.status = 'failed';
      batch.errors = { object: 'list', data: [{ code: 'invalid_request', message: plan.failure ?? 'invalid file', line: 1 }] };
    } else batch.status = 'in_progress';
    return;
  }
  if (batch.status === 'cancelling') return finish(state, batch, responder, { ...plan, outcome: 'cancelled' });
  if (batch.status !== 'in_progress' || state.hold || (batch.number as number) >= state.holdFrom) return;
  await finish(state, batch, responder, plan);
}

async function finish(state: BatchServerState, batch: BatchServerState['batches'][number], responder: OpenAIResponder, plan: BatchPlan): Promise<void> {
  const input = state.files.get(String(batch.input_file_id));
  const lines = (input?.content ?? '').split('\n').filter((line) => line.trim() !== '');
  const output: string[] = [];
  const errors: string[] = [];
  const outcome = plan.outcome ?? 'completed';
  const answered = outcome === 'completed' ? lines.length : (plan.answered ?? 0);
  let completed = 0;
  let failed = 0;
  for (const [index, text] of lines.entries()) {
    const line = JSON.parse(text) as { custom_id: string; url: string; body: Record<string, unknown> };
    if (index >= answered) {
      const code = outcome === 'expired' ? 'batch_expired' : 'batch_cancelled';
      errors.push(JSON.stringify({ id: `req_${index}`, custom_id: line.custom_id, response: null, error: { code, message: `This request was not run: the batch ${outcome === 'expired' ? 'expired' : 'was cancelled'}.` } }));
      failed += 1;
      continue;
    }
    const info = describeRequest(line.url, line.body);
    const reply = await responder(info);
    if ('status' in reply) {
      errors.push(JSON.stringify({ id: `req_${index}`, custom_id: line.custom_id, response: { status_code: reply.status, request_id: `r${index}`, body: { error: { message: reply.message ?? `scripted error ${reply.status}`, type: 'invalid_request_error' } } }, error: null }));
      failed += 1;
      continue;
    }
    if (!('text' in reply) && !('object' in reply) && !('toolCalls' in reply)) throw new Error('batch lines take answers or statuses only');
    completed += 1;
    if (plan.missing?.includes(index)) continue;
    const body = line.url === '/v1/responses' ? responsesResult(info, reply, index + 1) : chatCompletion(info, reply, index + 1);
    output.push(JSON.stringify({ id: `req_${index}`, custom_id: line.custom_id, response: { status_code: 200, request_id: `r${index}`, body }, error: null }));
  }
  const save = (kind: string, rows: string[]): string | null => {
    if (rows.length === 0) return null;
    const id = `file-${batch.id}-${kind}`;
    state.files.set(id, { filename: `${kind}.jsonl`, purpose: `batch_${kind}`, content: `${rows.join('\n')}\n` });
    return id;
  };
  batch.output_file_id = save('output', output);
  batch.error_file_id = save('error', errors);
  batch.request_counts = { total: lines.length, completed, failed };
  batch.status = outcome;
}

function shown(batch: Record<string, unknown>): Record<string, unknown> {
  const { number: _number, ...rest } = batch;
  return rest;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
