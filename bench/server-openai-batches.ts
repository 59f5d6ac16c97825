/**
 * The files and batches endpoints of the OpenAI API for the bench server: request files
 * uploaded (multipart) and kept in memory, jobs created from them, read, listed and cancelled,
 * and their output files downloaded. A job completes at its first read, answering every line as
 * the live chat completions endpoint would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText, chatCompletion, isRecord, modelOf, parseJson, send, sendText, type BatchStats } from './server-reply.js';

const CREATED = 1_700_000_000;

interface Job {
  id: string;
  endpoint: unknown;
  inputFileId: string;
  status: 'validating' | 'cancelling' | 'cancelled' | 'completed';
  outputFileId: string | null;
  metadata: unknown;
  total: number;
  completed: number;
  failed: number;
}

export interface OpenAIBatches {
  /** Handles a `/v1/files…` or `/v1/batches…` request; false when the path is not one. */
  handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<boolean>;
  reset(): void;
}

export function openaiBatches(stats: () => BatchStats): OpenAIBatches {
  const files = new Map<string, string>();
  const jobs = new Map<string, Job>();
  let fileCount = 0;
  let jobCount = 0;

  const shown = (job: Job): Record<string, unknown> => ({
    id: job.id,
    object: 'batch',
    endpoint: job.endpoint,
    input_file_id: job.inputFileId,
    completion_window: '24h',
    status: job.status,
    output_file_id: job.outputFileId,
    error_file_id: null,
    errors: null,
    created_at: CREATED,
    metadata: job.metadata,
    request_counts: { total: job.total, completed: job.completed, failed: job.failed },
  });

  const finish = (job: Job, cancelled: boolean): void => {
    const input = files.get(job.inputFileId) ?? '';
    const output: string[] = [];
    for (const text of input.split('\n')) {
      if (text.trim() === '') continue;
      const line = parseJson(text);
      const body = isRecord(line?.body) ? line.body : {};
      if (cancelled) {
        job.failed += 1;
        continue;
      }
      job.completed += 1;
      const answer = chatCompletion(modelOf(body), answerText(body.messages) ?? 'answer 0', job.completed);
      output.push(JSON.stringify({ id: `req_${job.completed}`, custom_id: line?.custom_id, response: { status_code: 200, request_id: `r${job.completed}`, body: answer }, error: null }));
    }
    if (output.length > 0) {
      fileCount += 1;
      job.outputFileId = `file-${fileCount}`;
      files.set(job.outputFileId, `${output.join('\n')}\n`);
    }
    job.status = cancelled ? 'cancelled' : 'completed';
  };

  return {
    async handle(req, res, raw) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname;
      const method = req.method ?? 'GET';
      if (!path.startsWith('/v1/files') && !path.startsWith('/v1/batches')) return false;
      if (method === 'POST' && path === '/v1/files') {
        const form = await new Response(raw, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
        const file = form.get('file');
        if (!(file instanceof Blob) || form.get('purpose') !== 'batch') {
          send(res, 400, { error: { message: 'file and purpose=batch needed', type: 'invalid_request_error' } });
          return true;
        }
        fileCount += 1;
        const id = `file-${fileCount}`;
        files.set(id, await file.text());
        stats().uploads += 1;
        send(res, 200, { id, object: 'file', bytes: file.size, created_at: CREATED, filename: (file as File).name, purpose: 'batch' });
        return true;
      }
      const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
      if (method === 'GET' && content?.[1] !== undefined) {
        const text = files.get(decodeURIComponent(content[1]));
        if (text === undefined) send(res, 404, { error: { message: 'no such file', type: 'invalid_request_error' } });
        else {
          stats().downloads += 1;
          sendText(res, text, 'application/jsonl');
        }
        return true;
      }
      if (method === 'POST' && path === '/v1/batches') {
        const body = parseJson(raw.toString('utf8')) ?? {};
        const input = files.get(String(body.input_file_id));
        if (input === undefined) {
          send(res, 400, { error: { message: `no file ${String(body.input_file_id)}`, type: 'invalid_request_error' } });
          return true;
        }
        jobCount += 1;
        let total = 0;
        for (let i = input.indexOf('\n'); i !== -1; i = input.indexOf('\n', i + 1)) total += 1;
        const job: Job = { id: `batch_${jobCount}`, endpoint: body.endpoint, inputFileId: String(body.input_file_id), status: 'validating', outputFileId: null, metadata: body.metadata ?? null, total, completed: 0, failed: 0 };
        jobs.set(job.id, job);
        stats().creates += 1;
        stats().lines += total;
        send(res, 200, shown(job));
        return true;
      }
      if (method === 'GET' && path === '/v1/batches') {
        send(res, 200, { object: 'list', data: [...jobs.values()].reverse().map(shown), has_more: false });
        return true;
      }
      const one = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
      const job = one?.[1] === undefined ? undefined : jobs.get(decodeURIComponent(one[1]));
      if (one === null || job === undefined) send(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error' } });
      else if (method === 'POST' && one[2] === '/cancel') {
        stats().cancels += 1;
        if (job.status === 'validating') job.status = 'cancelling';
        send(res, 200, shown(job));
      } else if (method === 'GET' && one[2] === undefined) {
        stats().polls += 1;
        if (job.status === 'validating' || job.status === 'cancelling') finish(job, job.status === 'cancelling');
        send(res, 200, shown(job));
      } else send(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error' } });
      return true;
    },
    reset() {
      files.clear();
      jobs.clear();
    },
  };
}
