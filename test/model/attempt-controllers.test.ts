import { describe, expect, it } from 'vitest';
import type { LanguageModel } from 'ai';
import { attemptGuard } from '../../src/model/attempt-guard.js';
import { releaseController, takeController } from '../../src/model/attempt-controllers.js';

describe('attempt controllers', () => {
  it('hands a controller whose signal was left untouched to the next attempt', () => {
    const used = takeController();
    releaseController(used);
    expect(takeController()).toBe(used);
  });

  it('keeps one whose listener was removed again', () => {
    const used = takeController();
    const listener = (): void => undefined;
    used.signal.addEventListener('abort', listener);
    used.signal.removeEventListener('abort', listener);
    releaseController(used);
    expect(takeController()).toBe(used);
  });

  it('never keeps an aborted one, one with a listener left, one with an onabort handler or one that AbortSignal.any follows', () => {
    const aborted = takeController();
    aborted.abort(new Error('timed out'));
    const listened = takeController();
    listened.signal.addEventListener('abort', () => undefined);
    const handled = takeController();
    handled.signal.onabort = () => undefined;
    const followed = takeController();
    AbortSignal.any([followed.signal]);
    for (const touched of [aborted, listened, handled, followed]) {
      releaseController(touched);
      const next = takeController();
      expect(next).not.toBe(touched);
      expect(next.signal.aborted).toBe(false);
      releaseController(next);
    }
  });
});

describe('the attempt guard', () => {
  it('gives a retry after a timed-out attempt a signal that is not aborted, and reuses an untouched one', async () => {
    const signals: AbortSignal[] = [];
    let calls = 0;
    const model = {
      specificationVersion: 'v3',
      doGenerate: async ({ abortSignal }: { abortSignal: AbortSignal }) => {
        signals.push(abortSignal);
        calls += 1;
        // The first attempt never answers: its timer aborts it.
        if (calls === 1) return new Promise((_, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason), { once: true }));
        return { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: {}, warnings: [] };
      },
    };
    const guard = attemptGuard({ timeoutMs: 20, maxRetries: 2, retryDelayMs: 1, random: () => 0 }, { failures: 0 });
    const call = () =>
      guard.wrapGenerate!({
        model: model as unknown as Extract<LanguageModel, { specificationVersion: 'v3' }>,
        params: { prompt: [] },
        doGenerate: () => Promise.reject(new Error('unused')),
        doStream: () => Promise.reject(new Error('unused')),
      });
    await call();
    expect(signals).toHaveLength(2);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]).not.toBe(signals[0]);
    expect(signals[1]?.aborted).toBe(false);
    await call();
    // The second attempt ended untouched: its signal serves the next call.
    expect(signals[2]).toBe(signals[1]);
    expect(signals[2]?.aborted).toBe(false);
  });
});
