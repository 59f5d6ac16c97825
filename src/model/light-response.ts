import type { IncomingHttpHeaders } from 'node:http';

/**
 * The answer `nodeFetch` hands the AI SDK for a whole (non-streamed) body: the parts of the
 * fetch `Response` the SDK reads — `ok`, `status`, `statusText`, `headers` (get, iteration),
 * `body.getReader()`, `text()`/`json()`/`arrayBuffer()` — over bytes already in memory.
 * A real `Response` wraps the bytes in a web stream the SDK then reads back chunk by chunk;
 * per request that costs more CPU than the rest of the HTTP exchange (measured in the CPU
 * profile of 1,000 loopback calls). Streamed answers (`text/event-stream`) still get a real one.
 */
export class LightResponse {
  readonly ok: boolean;
  readonly headers: LightHeaders;
  readonly redirected = false;
  readonly type = 'basic';
  private consumed = false;

  constructor(
    private readonly payload: Buffer | null,
    readonly status: number,
    readonly statusText: string,
    headers: IncomingHttpHeaders,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.headers = new LightHeaders(headers);
  }

  get bodyUsed(): boolean {
    return this.consumed;
  }

  /** A one-chunk reader, the way the SDK reads a body it wants whole. */
  get body(): LightBody | null {
    if (this.payload === null) return null;
    return new LightBody(() => this.take());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(this.take());
  }

  async text(): Promise<string> {
    return Buffer.from(this.take()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  private take(): Uint8Array {
    if (this.consumed) throw new TypeError('Body is unusable: Body has already been read');
    this.consumed = true;
    return this.payload ?? new Uint8Array(0);
  }
}

class LightBody {
  private reader: LightReader | undefined;

  constructor(private readonly take: () => Uint8Array) {}

  get locked(): boolean {
    return this.reader !== undefined;
  }

  getReader(): LightReader {
    if (this.reader !== undefined) throw new TypeError('ReadableStream is locked');
    this.reader = new LightReader(this.take);
    return this.reader;
  }

  async cancel(): Promise<void> {}
}

class LightReader {
  private done = false;

  constructor(private readonly take: () => Uint8Array) {}

  async read(): Promise<{ done: true; value: undefined } | { done: false; value: Uint8Array }> {
    if (this.done) return { done: true, value: undefined };
    this.done = true;
    const value = this.take();
    return value.length === 0 ? { done: true, value: undefined } : { done: false, value };
  }

  async cancel(): Promise<void> {
    this.done = true;
  }

  releaseLock(): void {}

  get closed(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}

/** Read-only response headers: names lower-cased, repeated ones joined with ", " as fetch does. */
export class LightHeaders {
  private readonly map = new Map<string, string>();

  constructor(headers: IncomingHttpHeaders) {
    for (const name of Object.keys(headers).sort()) {
      const value = headers[name];
      if (value !== undefined) this.map.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void): void {
    for (const [name, value] of this.map) callback(value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<string> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}
