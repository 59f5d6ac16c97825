import {
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type AttributeValue,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { randomFillSync } from 'node:crypto';

/**
 * What the span builders (row-spans.ts and its neighbours) call: `startSpan` only. Both
 * OpenTelemetry's SDK tracer and the lean one below have it.
 */
export interface SpanStarter {
  startSpan(name: string, options?: SpanOptions, context?: Context): Span;
}

/** As the SDK's defaults here (exporter.ts): a row with many evals carries one event per eval. */
const ATTRIBUTE_LIMIT = 1024;
const EVENT_LIMIT = 1024;

export interface LeanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes | undefined;
}

/**
 * An ended span as the encoder reads it. The attributes object is the one the builder passed
 * (already a fresh literal there), kept by reference and checked once when encoded, instead of
 * copied and checked attribute by attribute as the SDK's span does.
 */
export interface LeanSpanData {
  name: string;
  kind: SpanKind;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: LeanEvent[];
  droppedEvents: number;
  links: Link[];
  status: SpanStatus;
}

/** Random ids from a pooled buffer: one `randomFill` per 512 span ids rather than one per id. */
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
function randomHex(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const hex = pool.toString('hex', poolAt, poolAt + bytes);
  poolAt += bytes;
  // An all-zero id is invalid in OpenTelemetry; 2^-64 of a chance, but cheap to rule out.
  return /^0+$/.test(hex) ? randomHex(bytes) : hex;
}

function epochMs(time: TimeInput | undefined): number {
  if (time === undefined) return Date.now();
  if (typeof time === 'number') return time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

class LeanSpan implements Span {
  readonly #data: LeanSpanData;
  readonly #context: SpanContext;
  readonly #onEnd: (span: LeanSpanData) => void;
  #ended = false;

  constructor(data: LeanSpanData, onEnd: (span: LeanSpanData) => void) {
    this.#data = data;
    this.#context = { traceId: data.traceId, spanId: data.spanId, traceFlags: TraceFlags.SAMPLED };
    this.#onEnd = onEnd;
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.#ended) this.#data.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    if (!this.#ended) Object.assign(this.#data.attributes, attributes);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.#ended) return this;
    const timeGiven = typeof attributesOrTime === 'number' || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    const events = this.#data.events;
    // The SDK keeps the newest events past its limit and counts the dropped ones.
    if (events.length >= EVENT_LIMIT) {
      events.shift();
      this.#data.droppedEvents += 1;
    }
    events.push({ name, timeMs: epochMs(timeGiven ? (attributesOrTime as TimeInput) : time), attributes: timeGiven ? undefined : (attributesOrTime as Attributes | undefined) });
    return this;
  }

  addLink(link: Link): this {
    if (!this.#ended) this.#data.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    if (!this.#ended) this.#data.links.push(...links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK: OK is final, UNSET changes nothing, a message only as a string.
    if (this.#ended || this.#data.status.code === SpanStatusCode.OK || status.code === SpanStatusCode.UNSET) return this;
    this.#data.status = typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.#ended) this.#data.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.#ended) return;
    this.#ended = true;
    const end = epochMs(endTime);
    // A span cannot end before it starts: the SDK makes its duration zero.
    this.#data.endMs = end < this.#data.startMs ? this.#data.startMs : end;
    this.#onEnd(this.#data);
  }

  isRecording(): boolean {
    return !this.#ended;
  }

  recordException(): void {
    // Not used by agentmark's span builders (errors are statuses and `error.type`).
  }
}

/** A tracer whose spans are plain records handed to `onEnd` when they end (always sampled). */
export function leanTracer(onEnd: (span: LeanSpanData) => void): SpanStarter {
  return {
    startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
      const parent = context === undefined ? undefined : trace.getSpanContext(context);
      const traceId = parent?.traceId ?? randomHex(16);
      const data: LeanSpanData = {
        name,
        kind: options.kind ?? SpanKind.INTERNAL,
        traceId,
        spanId: randomHex(8),
        parentSpanId: parent?.spanId,
        startMs: epochMs(options.startTime),
        endMs: 0,
        attributes: options.attributes ?? {},
        events: [],
        droppedEvents: 0,
        links: options.links ?? [],
        status: { code: SpanStatusCode.UNSET },
      };
      return new LeanSpan(data, onEnd);
    },
  };
}

export { ATTRIBUTE_LIMIT };
