/**
 * A growable protobuf byte writer, just what OTLP's trace messages need. A length-delimited
 * message is opened with `begin()` (one byte kept for its length) and closed with `end()`,
 * which moves the body along only when the length needs more than one byte: most attributes
 * are shorter than 128 bytes, so nothing is encoded twice or measured ahead.
 */
export class ProtoWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(more: number): void {
    if (this.pos + more <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + more));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A non-negative integer below 2^53 as a varint. */
  varint(value: number): void {
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  /** An int64 varint: a negative number as its 64-bit two's complement (ten bytes). */
  int64(value: number): void {
    if (value >= 0) return this.varint(value);
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  string(value: string): void {
    // Three bytes per UTF-16 unit at most: a short string's length fits one byte, so it is
    // written in place and its length set after.
    if (value.length < 43) {
      this.ensure(1 + value.length * 3);
      const written = this.buf.write(value, this.pos + 1, 'utf8');
      this.buf[this.pos] = written;
      this.pos += 1 + written;
      return;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
  }

  /** A hex id (trace or span) as its bytes, length-prefixed. */
  hexBytes(hex: string): void {
    const length = hex.length >> 1;
    this.ensure(1 + length);
    this.buf[this.pos++] = length;
    this.pos += this.buf.write(hex, this.pos, length, 'hex');
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Epoch milliseconds as fixed64 nanoseconds, rounded as OpenTelemetry's `millisToHrTime`. */
  fixed64Ms(ms: number): void {
    const seconds = Math.trunc(ms / 1000);
    const nanos = Math.round((ms % 1000) * 1e6);
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(seconds) * 1_000_000_000n + BigInt(nanos), this.pos);
    this.pos += 8;
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** Opens a length-delimited body; returns where its length goes. */
  begin(): number {
    this.ensure(1);
    const at = this.pos;
    this.pos += 1;
    return at;
  }

  end(at: number): void {
    const length = this.pos - at - 1;
    if (length < 0x80) {
      this.buf[at] = length;
      return;
    }
    const size = varintSize(length);
    this.ensure(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = length;
    let i = at;
    while (v >= 0x80) {
      this.buf[i++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[i] = v;
  }

  /** The bytes written so far (a view, valid until the next write). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  reset(): void {
    this.pos = 0;
  }
}

export function varintSize(value: number): number {
  let size = 1;
  let v = value;
  while (v >= 0x80) {
    size += 1;
    v = Math.floor(v / 0x80);
  }
  return size;
}
