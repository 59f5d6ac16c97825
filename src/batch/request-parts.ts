import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { BatchJobRecord } from './types.js';

export interface BatchLimits {
  /** Requests per file. OpenAI's limit: 50,000. @default 50000 */
  maxRequests: number;
  /** Bytes per file. OpenAI's limit: 200 MB. @default 200 * 1024 * 1024 */
  maxBytes: number;
}

export const DEFAULT_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

export function partFile(dir: string, part: number): string {
  return join(dir, `requests-${String(part).padStart(3, '0')}.jsonl`);
}

/**
 * Writes batch request lines into `requests-000.jsonl`, `requests-001.jsonl`, ... in `dir`,
 * starting a new file whenever the next line would pass a limit, so each file is one job the
 * service accepts. Lines go straight to disk: a run of any size holds none of them.
 */
export class RequestParts {
  readonly #dir: string;
  readonly #limits: BatchLimits;
  readonly #parts: BatchJobRecord[] = [];
  #fd: number | undefined;

  /** @param firstPart number of the first file (earlier attempts' files keep theirs) */
  constructor(dir: string, limits: BatchLimits, private readonly firstPart = 0) {
    this.#dir = dir;
    this.#limits = limits;
    mkdirSync(dir, { recursive: true });
  }

  /** `line` is one JSON object without its newline. */
  add(line: string): void {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    if (bytes.length > this.#limits.maxBytes) {
      throw new UsageError('USAGE_BATCH_REQUEST_TOO_LARGE', `one batch request is ${bytes.length} bytes, more than the ${this.#limits.maxBytes} bytes a batch file may hold`, {
        hint: 'run this prompt without --batch, or raise --batch-max-bytes if the service allows it',
      });
    }
    let current = this.#parts[this.#parts.length - 1];
    if (current === undefined || current.requests >= this.#limits.maxRequests || current.bytes + bytes.length > this.#limits.maxBytes) {
      this.#closeFile();
      current = { part: this.firstPart + this.#parts.length, requests: 0, bytes: 0 };
      this.#parts.push(current);
      this.#fd = openSync(partFile(this.#dir, current.part), 'w');
    }
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd as number, bytes, offset, bytes.length - offset);
    current.requests += 1;
    current.bytes += bytes.length;
  }

  /** Closes the last file; the parts written, in order. */
  finish(): BatchJobRecord[] {
    this.#closeFile();
    return this.#parts;
  }

  #closeFile(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
