import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readRawLines } from '../store/results-file.js';
import { partFile } from './request-parts.js';
import type { BatchJobRecord } from './types.js';

/** What the batch said about one request. */
export type BatchAnswer = { ok: true; body: unknown } | { ok: false; reason: string; code: string };

/** `row-<index>-<repeat>`: what a batch line's `custom_id` is for a dataset row × repeat. */
export function customIdOf(index: number, repeat: number): string {
  return `row-${index}-${repeat}`;
}

export function outputFile(dir: string, part: number, kind: 'output' | 'errors'): string {
  return join(dir, `${kind}-${String(part).padStart(3, '0')}.jsonl`);
}

/** The custom ids each request file holds, read from the start of each line (written first). */
export async function requestPartOf(dir: string, jobs: readonly BatchJobRecord[]): Promise<Map<string, number>> {
  const parts = new Map<string, number>();
  for (const job of jobs) {
    for await (const line of readRawLines(partFile(dir, job.part))) {
      const id = /^\{"custom_id":"([^"\\]+)"/.exec(line.text)?.[1];
      if (id !== undefined) parts.set(id, job.part);
    }
  }
  return parts;
}

/**
 * Every answer in the downloaded output and error files of `jobs`, by custom id. A line with a
 * 2xx status (Anthropic: a `succeeded` result) is an answer; anything else (a status code, an `error` such as `batch_expired`) is
 * the reason that request failed.
 */
export async function readAnswers(dir: string, jobs: readonly BatchJobRecord[]): Promise<Map<string, BatchAnswer>> {
  const answers = new Map<string, BatchAnswer>();
  for (const job of jobs) {
    if (!job.downloaded) continue;
    for (const kind of ['output', 'errors'] as const) {
      let text: string;
      try {
        text = await readFile(outputFile(dir, job.part, kind), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const parsed = parseLine(line);
        // A later success wins over an earlier failure of the same request, never the reverse.
        if (parsed !== undefined && (parsed.answer.ok || !answers.get(parsed.id)?.ok)) answers.set(parsed.id, parsed.answer);
      }
    }
  }
  return answers;
}

interface ResultLine {
  custom_id?: unknown;
  /** Anthropic's Message Batches results: `{ type: succeeded | errored | canceled | expired, message?, error? }`. */
  result?: { type?: unknown; message?: unknown; error?: { error?: { type?: unknown; message?: unknown } } | null } | null;
  response?: { status_code?: unknown; body?: unknown } | null;
  error?: { code?: unknown; message?: unknown } | null;
}

function parseLine(text: string): { id: string; answer: BatchAnswer } | undefined {
  let line: ResultLine;
  try {
    line = JSON.parse(text) as ResultLine;
  } catch {
    return undefined;
  }
  if (typeof line.custom_id !== 'string') return undefined;
  if (line.result != null) return { id: line.custom_id, answer: anthropicAnswer(line.result) };
  const status = typeof line.response?.status_code === 'number' ? line.response.status_code : undefined;
  if (line.error == null && status !== undefined && status >= 200 && status < 300) {
    return { id: line.custom_id, answer: { ok: true, body: line.response?.body } };
  }
  const code = typeof line.error?.code === 'string' ? line.error.code : status !== undefined ? `http_${status}` : 'error';
  const message = typeof line.error?.message === 'string' ? line.error.message : bodyMessage(line.response?.body);
  const reason = `${status === undefined ? '' : `HTTP ${status} `}${code === `http_${status}` ? '' : `${code}: `}${message}`.trim();
  return { id: line.custom_id, answer: { ok: false, reason, code } };
}

/** An Anthropic result: the message, or why there is none (an expired or canceled request reads as OpenAI's `batch_expired` / `batch_cancelled`). */
function anthropicAnswer(result: NonNullable<ResultLine['result']>): BatchAnswer {
  switch (result.type) {
    case 'succeeded':
      return { ok: true, body: result.message };
    case 'expired':
      return { ok: false, reason: 'batch_expired: the batch ended (24 h) before this request ran', code: 'batch_expired' };
    case 'canceled':
      return { ok: false, reason: 'batch_cancelled: the batch was cancelled before this request ran', code: 'batch_cancelled' };
    default: {
      const code = typeof result.error?.error?.type === 'string' ? result.error.error.type : 'error';
      const message = typeof result.error?.error?.message === 'string' ? result.error.error.message : 'the request failed';
      return { ok: false, reason: `${code}: ${message}`, code };
    }
  }
}

function bodyMessage(body: unknown): string {
  const message = (body as { error?: { message?: unknown } } | null | undefined)?.error?.message;
  return typeof message === 'string' ? message : 'the request failed';
}
