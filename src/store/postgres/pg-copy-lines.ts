import type { Pool } from 'pg';
import { ResultsHash } from '../results-integrity.js';
import type { ResultsIntegrity } from '../types.js';
import { inTransaction } from './pg-client.js';

/** COPY's binary header: an 11-byte signature, 32-bit flags, then a 32-bit extension length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const NEWLINE = Buffer.from('\n');

/**
 * Count and sha256 of a run's lines in finish order, read as one `COPY ... TO STDOUT (FORMAT
 * binary)`: the server streams the lines' raw UTF-8 bytes, hashed here as they arrive, with no
 * row parsing and no text decoding (a paged SELECT of a 1,000,000-row run spent most of a push's
 * time in pg's row parser). The run id reaches the query as a setting made by a parameterised
 * set_config, since COPY takes no parameters; nothing is spliced into the SQL.
 */
export async function integrityByCopy(pool: Pool, runId: string): Promise<ResultsIntegrity> {
  const { to: copyTo } = await import('pg-copy-streams');
  return inTransaction(pool, async (client) => {
    await client.query("SELECT set_config('agentmark.run_id', $1, true)", [runId]);
    const stream = client.query(copyTo("COPY (SELECT line FROM agentmark_rows WHERE run_id = current_setting('agentmark.run_id') ORDER BY seq) TO STDOUT (FORMAT binary)"));
    const reader = new BinaryLines();
    for await (const chunk of stream as AsyncIterable<Buffer>) reader.push(chunk);
    return reader.end();
  });
}

/** Parses COPY's binary format of one text column, hashing each value as a line. */
export class BinaryLines {
  readonly #hash = new ResultsHash();
  #pending: Buffer = Buffer.alloc(0);
  #headerDone = false;
  #ended = false;

  push(chunk: Buffer): void {
    let buffer = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    let at = 0;
    if (!this.#headerDone) {
      if (buffer.length < 19 || buffer.length < 19 + buffer.readUInt32BE(15)) {
        this.#pending = Buffer.from(buffer);
        return;
      }
      if (!buffer.subarray(0, 11).equals(SIGNATURE)) throw new Error('COPY binary: bad signature');
      at = 19 + buffer.readUInt32BE(15);
      this.#headerDone = true;
    }
    for (;;) {
      if (this.#ended || buffer.length - at < 2) break;
      const fields = buffer.readInt16BE(at);
      if (fields === -1) {
        this.#ended = true;
        at += 2;
        break;
      }
      if (buffer.length - at < 6) break;
      const size = buffer.readInt32BE(at + 2);
      // A NULL cannot be stored (line is NOT NULL); it would hash as an empty line.
      const length = Math.max(0, size);
      if (buffer.length - at < 6 + length) break;
      const bytes = buffer.subarray(at + 6, at + 6 + length);
      this.#hash.update(bytes, blank(bytes) ? 0 : 1);
      this.#hash.update(NEWLINE, 0);
      at += 6 + length;
    }
    buffer = buffer.subarray(at);
    // Keep only the unread tail (a copy, so the chunk it came from can be freed).
    this.#pending = buffer.length === 0 ? Buffer.alloc(0) : Buffer.from(buffer);
  }

  end(): ResultsIntegrity {
    if (!this.#ended || this.#pending.length > 0) throw new Error('COPY binary: the stream ended mid-row');
    return this.#hash.value();
  }
}

/** A line of only whitespace counts for the hash but not as a row, as ResultsHash.line has it (a row starts with "{": decoded only otherwise). */
function blank(bytes: Buffer): boolean {
  return bytes[0] !== 0x7b && bytes.toString('utf8').trim() === '';
}
