import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ChangeBatcher, type ChangeBatch } from '../../src/watch/index.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('a burst of events is one batch, flushed after 100 ms of quiet', () => {
  const batches: ChangeBatch[] = [];
  const batcher = new ChangeBatcher({ onFlush: (batch) => batches.push(batch) });
  for (let i = 0; i < 5; i++) {
    batcher.push('/p/a.prompt.mdx', 'change');
    vi.advanceTimersByTime(10);
  }
  batcher.push('/p/b.jsonl', 'change');
  vi.advanceTimersByTime(99);
  expect(batches).toHaveLength(0);
  vi.advanceTimersByTime(1);
  expect(batches).toHaveLength(1);
  expect([...(batches[0] ?? [])]).toEqual([
    ['/p/a.prompt.mdx', 'change'],
    ['/p/b.jsonl', 'change'],
  ]);
});

test('delete then re-create (an atomic save) is a change; dispose drops what is pending', () => {
  const batches: ChangeBatch[] = [];
  const batcher = new ChangeBatcher({ delayMs: 50, onFlush: (batch) => batches.push(batch) });
  batcher.push('/p/a.prompt.mdx', 'unlink');
  batcher.push('/p/a.prompt.mdx', 'add');
  vi.advanceTimersByTime(50);
  expect(batches[0]?.get('/p/a.prompt.mdx')).toBe('change');

  batcher.push('/p/a.prompt.mdx', 'change');
  batcher.dispose();
  vi.advanceTimersByTime(1000);
  expect(batches).toHaveLength(1);
  expect(vi.getTimerCount()).toBe(0);
});

test('a timer that fires late (a stalled process) waits a little longer for queued events', () => {
  const batches: ChangeBatch[] = [];
  const batcher = new ChangeBatcher({ onFlush: (batch) => batches.push(batch) });
  batcher.push('/p/a.prompt.mdx', 'change');
  // Fake a stall: the clock jumps past the deadline before the timer gets to run.
  vi.setSystemTime(Date.now() + 400);
  vi.advanceTimersByTime(100);
  expect(batches).toHaveLength(0);
  batcher.push('/p/a.prompt.mdx', 'change');
  vi.advanceTimersByTime(100);
  expect(batches).toHaveLength(1);
});
