import type { Pool } from 'pg';
import { ResultsHash } from '../results-integrity.js';
import type { ResultsIntegrity } from '../types.js';
import { inTransaction } from './pg-client.js';
import { KeySeen } from './key-seen.js';

/** COPY's binary header: an 11-byte signature, 32-bit flags, then a 32-bit extension length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const NEWLINE = Buffer.from('\n');

/** What one pass over a run's stored rows found: the count and sha256 of its lines, and whether an (index, repeat) is there twice. */
export interface RowsFound extends ResultsIntegrity {
  duplicate: boolean;
}

/**
 * One pass over a run's rows in finish order, as one `COPY ... TO STDOUT (FORMAT binary)` of
 * (idx, rep, line): the server streams the lines' raw UTF-8 bytes, hashed here as they arrive with
 * no row parsing or text decoding, and each (index, repeat) is marked in a bitmap (a paged SELECT
 * spent most of a 1,000,000-row push in pg's row parser, and a GROUP BY for duplicates read the
 * rows a second time). The ordered scan of the primary key is forced (enable_sort off): on a table
 * just loaded the planner, with no statistics yet, chose to sort the whole run. The run id reaches
 * the query as a setting made by a parameterised set_config, since COPY takes no parameters.
 */
export async function readBackRows(pool: Pool, runId: string): Promise<RowsFound> {
  const { to: copyTo } = await import('pg-copy-streams');
  return inTransaction(pool, async (client) => {
    await client.query("SELECT set_config('agentmark.run_id', $1, true), set_config('enable_sort', 'off', true)", [runId]);
    const stream = client.query(copyTo("COPY (SELECT idx, rep, line FROM agentmark_rows WHERE run_id = current_setting('agentmark.run_id') ORDER BY seq) TO STDOUT (FORMAT binary)"));
    const reader = new BinaryRows();
    for await (const chunk of stream as AsyncIterable<Buffer>) reader.push(chunk);
    return reader.end();
  });
}

/** Parses COPY's binary format of (int4 idx, int4 rep, text line) rows: hashes each line, marks each key. */
export class BinaryRows {
  readonly #hash = new ResultsHash();
  readonly #seen = new KeySeen();
  #duplicate = false;
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
    // A row: int16 field count (-1 ends the data), then per field an int32 length and its bytes.
    while (!this.#ended && buffer.length - at >= 2) {
      const fields = buffer.readInt16BE(at);
      if (fields === -1) {
        this.#ended = true;
        at += 2;
        break;
      }
      if (fields !== 3) throw new Error(`COPY binary: ${fields} fields in a row, 3 expected`);
      // idx and rep: 4-byte length (always 4, the columns are NOT NULL) and a 4-byte integer each.
      if (buffer.length - at < 2 + 8 + 8 + 4) break;
      const length = Math.max(0, buffer.readInt32BE(at + 18));
      if (buffer.length - at < 22 + length) break;
      if (this.#seen.mark(buffer.readInt32BE(at + 6), buffer.readInt32BE(at + 14))) this.#duplicate = true;
      const bytes = buffer.subarray(at + 22, at + 22 + length);
      this.#hash.update(bytes, blank(bytes) ? 0 : 1);
      this.#hash.update(NEWLINE, 0);
      at += 22 + length;
    }
    buffer = buffer.subarray(at);
    // Keep only the unread tail (a copy, so the chunk it came from can be freed).
    this.#pending = buffer.length === 0 ? Buffer.alloc(0) : Buffer.from(buffer);
  }

  end(): RowsFound {
    if (!this.#ended || this.#pending.length > 0) throw new Error('COPY binary: the stream ended mid-row');
    return { ...this.#hash.value(), duplicate: this.#duplicate };
  }
}

/** A line of only whitespace counts for the hash but not as a row, as ResultsHash.line has it (a row starts with "{": decoded only otherwise). */
function blank(bytes: Buffer): boolean {
  return bytes[0] !== 0x7b && bytes.toString('utf8').trim() === '';
}
