import { closeSync, fstatSync, open, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { markDirty, PRIORITY, type TurnFile } from '../write-turn.js';
import { KeyIndex, type Slot } from './key-index.js';

const NEWLINE = 0x0a;
/** Every line starts with this, then the 64-hex key: the index is built without parsing JSON. */
const LINE_START = '{"key":"';
const KEY_LENGTH = 64;

/**
 * One append-only file of cache entries, a JSON line each: `{"key":"<hex>","response":{…}}`.
 * The lines of one event-loop turn are one write with O_APPEND (write-turn.ts), so concurrent
 * writers never interleave inside a line on a local file system; a line torn by a kill is unparseable and reads as a miss, and the
 * next append starts on a fresh line. Lookups keep only offsets in memory, never the answers.
 */
export class CacheSegment implements TurnFile {
  private slots: KeyIndex | undefined;
  private size = 0;
  private tornTail = false;
  /** Opened for appending on first write and kept until `close`, so a write is one syscall. */
  private appendFd: number | undefined;
  /**
   * The append descriptor being opened, off the main thread: opening (or creating) a file costs
   * 0.1–0.6 ms here. Lines stored meanwhile wait in `queued`.
   */
  private opening: Promise<void> | undefined;
  private queued: { key: string; line: string }[] = [];
  /** Lines of this turn, written together at its end. */
  private pending: { key: string; line: string }[] = [];
  private pendingFd: number | undefined;
  readonly priority = PRIORITY.cache;

  constructor(
    readonly path: string,
    /** A failed open or write; the line is dropped (a cache write never fails a row). */
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The entry's line as parsed JSON, or undefined when absent or unreadable. */
  read(key: string): unknown {
    // A line of ours still waiting for the end of the turn is read from the file like the rest.
    if (this.pending.some((entry) => entry.key === key)) this.flush();
    const slot = this.index().get(key);
    if (slot === undefined) return undefined;
    const parsed = this.readSlot(slot, key);
    if (parsed !== undefined) return parsed;
    // Another process appended since we indexed, so our offsets for our own writes are stale.
    this.slots = undefined;
    const again = this.index().get(key);
    return again === undefined ? undefined : this.readSlot(again, key);
  }

  /** Appends one line: at once when the file is open, else as soon as it is (see `flushed`). */
  append(key: string, line: string): void {
    if (this.appendFd !== undefined) {
      this.write(this.appendFd, key, line);
      return;
    }
    this.queued.push({ key, line });
    this.opening ??= new Promise<void>((resolve) => {
      open(this.path, 'a+', (error, fd) => {
        if (error) {
          this.onError(error);
          this.queued = [];
          this.opening = undefined;
        } else {
          // A run that only writes (--no-cache) never reads the segment; it only needs to know
          // whether a kill left a torn last line to start after.
          if (this.slots === undefined) this.tornTail = endsTorn(fd);
          this.appendFd = fd;
          const queued = this.queued;
          this.queued = [];
          for (const entry of queued) this.write(fd, entry.key, entry.line);
        }
        resolve();
      });
    });
  }

  /**
   * Resolves when every line appended so far is queued for the file (or was dropped by an
   * error); undefined when that is already so, sparing the caller a promise per line.
   */
  flushed(): Promise<void> | undefined {
    if (this.opening === undefined || this.appendFd !== undefined) return undefined;
    return this.waitOpened();
  }

  private async waitOpened(): Promise<void> {
    while (this.opening !== undefined && this.appendFd === undefined) await this.opening;
  }

  /** Writes what is queued, then releases the descriptor; appending later reopens it. */
  async close(): Promise<void> {
    await this.flushed();
    this.flush();
    this.opening = undefined;
    if (this.appendFd === undefined) return;
    closeSync(this.appendFd);
    this.appendFd = undefined;
  }

  /** Queues the line for the end of this turn (write-turn.ts), where it is indexed as written. */
  private write(fd: number, key: string, line: string): void {
    this.pending.push({ key, line });
    this.pendingFd = fd;
    markDirty(this);
  }

  /** Writes the lines queued this turn in one call. */
  flush(): void {
    const fd = this.pendingFd;
    if (this.pending.length === 0 || fd === undefined) return;
    const lines = this.pending;
    this.pending = [];
    const lead = this.tornTail ? '\n' : '';
    const text = lead + lines.map((entry) => `${entry.line}\n`).join('');
    try {
      writeSync(fd, text);
    } catch (error) {
      this.onError(error);
      // Part of the text may be in the file: index it again from the file when next read.
      this.slots = undefined;
      return;
    }
    this.tornTail = false;
    if (this.slots === undefined) return; // indexed from the file, our lines included, when first read
    let offset = this.size + lead.length;
    for (const entry of lines) {
      const length = Buffer.byteLength(entry.line);
      this.slots.set(entry.key, offset, length);
      offset += length + 1;
    }
    this.size = offset;
  }

  private index(): KeyIndex {
    if (this.slots) return this.slots;
    const slots = new KeyIndex();
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path);
    } catch {
      bytes = Buffer.alloc(0);
    }
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      if (end - start > LINE_START.length + KEY_LENGTH && bytes.toString('latin1', start, start + LINE_START.length) === LINE_START) {
        const key = bytes.toString('latin1', start + LINE_START.length, start + LINE_START.length + KEY_LENGTH);
        slots.set(key, start, end - start);
      }
      start = end + 1;
    }
    this.size = bytes.length;
    this.tornTail = bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE;
    this.slots = slots;
    return slots;
  }

  private readSlot(slot: Slot, key: string): unknown {
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'r');
      const buffer = Buffer.alloc(slot.length);
      const read = readSync(fd, buffer, 0, slot.length, slot.offset);
      const parsed: unknown = JSON.parse(buffer.toString('utf8', 0, read));
      const entryKey = parsed !== null && typeof parsed === 'object' ? (parsed as { key?: unknown }).key : undefined;
      return entryKey === key ? parsed : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}

/** Whether the file's last byte is something other than a newline (a line torn by a kill). */
function endsTorn(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}
