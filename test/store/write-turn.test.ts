import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ResponseCache } from '../../src/model/response-cache.js';
import type { ModelResponse } from '../../src/model/types.js';
import { RunStore } from '../../src/store/index.js';
import { markDirty, turnWritten, type TurnFile } from '../../src/write-turn.js';
import { manifest, row, onTempDir } from './fixtures.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

const ID = '20261201-060000-ab12cd';
const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** A file that logs its flushes into `log`. */
function probe(name: string, priority: number, log: string[]): TurnFile {
  return { priority, flush: () => log.push(name) };
}

describe('one write per file per event-loop turn', () => {
  test('rows appended in one turn reach the file together at its end, and `written` waits for it', async () => {
    const handle = await new RunStore(root).create(manifest(ID));
    const results = join(handle.dir, 'results.jsonl');
    handle.append(row(0));
    handle.append(row(1));
    // Still queued: nothing is written before the turn ends.
    expect(read(results)).toBe('');
    await handle.written();
    expect(read(results)).toBe(`${JSON.stringify(row(0))}\n${JSON.stringify(row(1))}\n`);
    // Reading the rows back sees rows still queued too.
    handle.append(row(2));
    const back: number[] = [];
    for await (const stored of handle.rowsInOrder()) back.push(stored.index);
    expect(back).toEqual([0, 1, 2]);
    await handle.close();
  });

  test('files flush in priority order (cache, results, report), whatever order they were queued in', async () => {
    const log: string[] = [];
    markDirty(probe('report', 2, log));
    markDirty(probe('results', 1, log));
    markDirty(probe('cache', 0, log));
    expect(log).toEqual([]);
    await turnWritten();
    expect(log).toEqual(['cache', 'results', 'report']);
    // A file marked twice in a turn flushes once.
    const twice = probe('once', 0, log);
    markDirty(twice);
    markDirty(twice);
    await turnWritten();
    expect(log.slice(3)).toEqual(['once']);
  });

  test("a cache line queued in the same turn as a row's result is in its file first", async () => {
    const handle = await new RunStore(root).create(manifest(ID));
    const cache = new ResponseCache(join(root, 'cache'));
    const response: ModelResponse = { output: 'answer 0', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, finishReason: 'stop', latencyMs: 5, retries: 0, cached: false, costUsd: undefined };
    const key = 'a'.repeat(64);
    await cache.queue(key, response); // waits for the segment to open, then queues
    handle.append(row(0));
    // Seen by a file watcher at the results write: the answer must already be cached.
    let cachedAtResultWrite: string | undefined;
    markDirty({ priority: 1.5, flush: () => (cachedAtResultWrite = read(cache.pathOf(key))) });
    await handle.written();
    expect(cachedAtResultWrite).toContain(`"key":"${key}"`);
    await cache.close();
    await handle.close();
  });

  test('a process that exits with lines still queued writes them on the way out', () => {
    const turn = fileURLToPath(new URL('../../dist/write-turn.js', import.meta.url));
    const out = join(root, 'exit.txt');
    // The built module (npm test builds first); process.exit runs `exit` handlers synchronously.
    const script = `
      import { appendFileSync } from 'node:fs';
      const { markDirty } = await import(${JSON.stringify(turn)});
      markDirty({ priority: 0, flush: () => appendFileSync(${JSON.stringify(out)}, 'flushed\\n') });
      process.exit(3);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(3);
    expect(read(out)).toBe('flushed\n');
  });
});
