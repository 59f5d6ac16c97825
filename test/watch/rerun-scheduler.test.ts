import { expect, test } from 'vitest';
import { RerunScheduler, type RerunRequest } from '../../src/watch/index.js';

/** A task that runs until its signal aborts or the test lets it finish. */
function controllableTask() {
  const started: Array<{ experiment: string; request: RerunRequest; signal: AbortSignal; finish: () => void }> = [];
  const task = (experiment: string, request: RerunRequest, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      started.push({ experiment, request, signal, finish: resolve });
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  return { started, task };
}

test('a request for a running experiment aborts it and reruns once with the merged request', async () => {
  const { started, task } = controllableTask();
  const scheduler = new RerunScheduler(task, () => {});
  scheduler.request('a', { onlyIndexes: new Set([1]) });
  scheduler.request('b');
  expect(started.map((run) => run.experiment)).toEqual(['a', 'b']);

  scheduler.request('a', { onlyIndexes: new Set([2]) });
  scheduler.request('a', { onlyIndexes: new Set([3]) });
  expect(started[0]?.signal.aborted).toBe(true);
  expect(started[1]?.signal.aborted).toBe(false);
  await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  expect(started).toHaveLength(3);
  expect([...(started[2]?.request.onlyIndexes ?? [])].sort()).toEqual([2, 3]);

  // "All rows" wins over a subset.
  scheduler.request('a', { onlyIndexes: new Set([4]) });
  scheduler.request('a');
  await new Promise((resolve) => setImmediate(resolve));
  expect(started[3]?.request.onlyIndexes).toBeUndefined();

  started[1]?.finish();
  started[3]?.finish();
  await scheduler.idle();
  expect(started).toHaveLength(4);
});

test('close aborts every run, waits for them, and ignores later requests', async () => {
  const { started, task } = controllableTask();
  const errors: unknown[] = [];
  const scheduler = new RerunScheduler(task, (_name, error) => errors.push(error));
  scheduler.request('a');
  scheduler.request('b');
  await scheduler.close();
  expect(started.every((run) => run.signal.aborted)).toBe(true);
  scheduler.request('a');
  expect(started).toHaveLength(2);
  expect(errors).toEqual([]);
});

test('a task that throws is reported, and the experiment can run again', async () => {
  const errors: unknown[] = [];
  let calls = 0;
  const scheduler = new RerunScheduler(async () => {
    calls++;
    if (calls === 1) throw new Error('boom');
  }, (_name, error) => errors.push(error));
  scheduler.request('a');
  await scheduler.idle();
  scheduler.request('a');
  await scheduler.idle();
  expect(calls).toBe(2);
  expect(errors).toHaveLength(1);
});
