/**
 * Anthropic's Message Batches API for the bench server: create (the requests in the body),
 * retrieve, list, cancel, and the results (JSONL at `results_url`). A batch ends at its first
 * retrieve, answering every request as the live Messages API would, so a batch run's wall time
 * is the CLI's own work plus one poll wait.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicMessage, answerText, isRecord, modelOf, parseJson, send, sendText, type BatchStats } from './server-reply.js';

interface MessageBatch {
  id: string;
  status: 'in_progress' | 'canceling' | 'ended';
  requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
  createdAt: string;
  cancelledAt: string | null;
  results: string | null;
  succeeded: number;
  canceled: number;
}

export interface AnthropicBatches {
  /** Handles a `/v1/messages/batches…` request; false when the path is not one. */
  handle(req: IncomingMessage, res: ServerResponse, raw: string, baseUrl: string): boolean;
  reset(): void;
}

export function anthropicBatches(stats: () => BatchStats): AnthropicBatches {
  const batches = new Map<string, MessageBatch>();
  let created = 0;

  const shown = (batch: MessageBatch, baseUrl: string): Record<string, unknown> => {
    const ended = batch.status === 'ended';
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.status,
      request_counts: { processing: ended ? 0 : batch.requests.length, succeeded: batch.succeeded, errored: 0, canceled: batch.canceled, expired: 0 },
      created_at: batch.createdAt,
      ended_at: null,
      expires_at: batch.createdAt,
      cancel_initiated_at: batch.cancelledAt,
      results_url: ended ? `${baseUrl}/messages/batches/${batch.id}/results` : null,
    };
  };

  const end = (batch: MessageBatch): void => {
    const lines = batch.requests.map(({ custom_id, params }, i) => {
      if (batch.cancelledAt !== null) {
        batch.canceled += 1;
        return JSON.stringify({ custom_id, result: { type: 'canceled' } });
      }
      batch.succeeded += 1;
      const message = anthropicMessage(modelOf(params), answerText(params.messages) ?? 'answer 0', i + 1);
      return JSON.stringify({ custom_id, result: { type: 'succeeded', message } });
    });
    batch.results = `${lines.join('\n')}\n`;
    batch.status = 'ended';
  };

  return {
    handle(req, res, raw, baseUrl) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      if (!url.pathname.startsWith('/v1/messages/batches')) return false;
      if (req.headers['x-api-key'] === undefined || req.headers['anthropic-version'] === undefined) {
        send(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'x-api-key and anthropic-version are required' } });
        return true;
      }
      if (method === 'POST' && url.pathname === '/v1/messages/batches') {
        const body = parseJson(raw);
        const requests = Array.isArray(body?.requests) ? (body.requests as unknown[]) : undefined;
        if (requests === undefined || !requests.every((r) => isRecord(r) && typeof r.custom_id === 'string' && isRecord(r.params))) {
          send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'requests: [{ custom_id, params }] expected' } });
          return true;
        }
        created += 1;
        const batch: MessageBatch = {
          id: `msgbatch_${created}`,
          status: 'in_progress',
          requests: requests as MessageBatch['requests'],
          createdAt: new Date().toISOString(),
          cancelledAt: null,
          results: null,
          succeeded: 0,
          canceled: 0,
        };
        batches.set(batch.id, batch);
        stats().creates += 1;
        stats().lines += requests.length;
        send(res, 200, shown(batch, baseUrl));
        return true;
      }
      if (method === 'GET' && url.pathname === '/v1/messages/batches') {
        send(res, 200, { data: [...batches.values()].reverse().map((b) => shown(b, baseUrl)), has_more: false });
        return true;
      }
      const one = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(url.pathname);
      const batch = one?.[1] === undefined ? undefined : batches.get(one[1]);
      if (one === null || batch === undefined) {
        send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${url.pathname}` } });
        return true;
      }
      if (method === 'POST' && one[2] === '/cancel') {
        stats().cancels += 1;
        if (batch.status === 'in_progress') {
          batch.status = 'canceling';
          batch.cancelledAt = new Date().toISOString();
        }
        send(res, 200, shown(batch, baseUrl));
      } else if (method === 'GET' && one[2] === '/results') {
        if (batch.results === null) send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'the batch has not ended' } });
        else {
          stats().downloads += 1;
          sendText(res, batch.results, 'application/binary');
        }
      } else if (method === 'GET' && one[2] === undefined) {
        stats().polls += 1;
        if (batch.status !== 'ended') end(batch);
        send(res, 200, shown(batch, baseUrl));
      } else {
        send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${url.pathname}` } });
      }
      return true;
    },
    reset() {
      batches.clear();
    },
  };
}
