import { closeSync, openSync, readSync } from 'node:fs';
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
 * the reason that request failed. The files are read line by line and only where each answer's
 * line is is kept (see BatchAnswers): a million answers are never in memory at once.
 */
export async function readAnswers(dir: string, jobs: readonly BatchJobRecord[]): Promise<BatchAnswers> {
  const answers = new BatchAnswers();
  for (const job of jobs) {
    if (!job.downloaded) continue;
    for (const kind of ['output', 'errors'] as const) {
      const path = outputFile(dir, job.part, kind);
      try {
        for await (const line of readRawLines(path)) {
          if (line.text.trim() === '') continue;
          const parsed = parseLine(line.text);
          if (parsed === undefined) continue;
          const length = Buffer.byteLength(line.text);
          answers.add(parsed.id, parsed.answer.ok, path, line.end - length - (line.terminated ? 1 : 0), length);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return answers;
}

/**
 * Where each custom id's answer line is in the downloaded files: a file number, an offset and a
 * length a line (16 bytes, beside the map entry of its id), read again and parsed when asked for.
 * A later success wins over an earlier failure of the same request, never the reverse.
 */
export class BatchAnswers {
  readonly #slots = new Map<string, number>();
  readonly #files: string[] = [];
  readonly #descriptors = new Map<number, number>();
  #file = new Uint16Array(1024);
  #ok = new Uint8Array(1024);
  #start = new Float64Array(1024);
  #length = new Uint32Array(1024);
  #count = 0;

  get size(): number {
    return this.#slots.size;
  }

  add(id: string, ok: boolean, path: string, start: number, length: number): void {
    const existing = this.#slots.get(id);
    if (existing !== undefined && !ok && this.#ok[existing] === 1) return;
    if (this.#files.at(-1) !== path) this.#files.push(path);
    const slot = existing ?? this.#grow();
    this.#file[slot] = this.#files.length - 1;
    this.#ok[slot] = ok ? 1 : 0;
    this.#start[slot] = start;
    this.#length[slot] = length;
    this.#slots.set(id, slot);
  }

  /** The answer to `id`, read from its file; undefined when no downloaded file has one. */
  /** Whether `id` has a successful answer, from memory: no read of its line. */
  isOk(id: string): boolean {
    const slot = this.#slots.get(id);
    return slot !== undefined && this.#ok[slot] === 1;
  }

  get(id: string): BatchAnswer | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    const fileNumber = this.#file[slot] as number;
    let fd = this.#descriptors.get(fileNumber);
    if (fd === undefined) {
      fd = openSync(this.#files[fileNumber] as string, 'r');
      // Kept for the rest of this turn (the rows of one pool turn read together), then closed:
      // nobody has to remember to close a lookup.
      if (this.#descriptors.size === 0) setImmediate(() => this.close());
      this.#descriptors.set(fileNumber, fd);
    }
    const bytes = Buffer.alloc(this.#length[slot] as number);
    readSync(fd, bytes, 0, bytes.length, this.#start[slot] as number);
    return parseLine(bytes.toString('utf8'))?.answer;
  }

  /** Closes the files `get` opened this turn; `get` opens them again if asked. */
  close(): void {
    for (const fd of this.#descriptors.values()) closeSync(fd);
    this.#descriptors.clear();
  }

  #grow(): number {
    if (this.#count === this.#ok.length) {
      const size = this.#ok.length * 2;
      this.#file = grown(this.#file, new Uint16Array(size));
      this.#ok = grown(this.#ok, new Uint8Array(size));
      this.#start = grown(this.#start, new Float64Array(size));
      this.#length = grown(this.#length, new Uint32Array(size));
    }
    return this.#count++;
  }
}

function grown<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from as ArrayLike<number> & T);
  return to;
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
