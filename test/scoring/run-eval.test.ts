import { describe, expect, it } from 'vitest';
import { runEval, type BoundEval, type Scorer } from '../../src/scoring/index.js';
import { formatSeconds } from '../../src/format-seconds.js';
import { params } from './fixtures.js';

function bound(scorer: Scorer, schema: BoundEval['schema'] = { type: 'boolean' }): BoundEval {
  return { name: 'e', scorer, schema, source: 'user' };
}

describe('runEval', () => {
  it('validates and normalises a sync or async result', async () => {
    expect(await runEval(bound(() => ({ passed: true })), params())).toEqual({ passed: true, score: 1, normalized: 1 });
    expect(await runEval(bound(async () => ({ score: 3 }), { type: 'numeric', min: 1, max: 5 }), params())).toEqual({
      score: 3,
      normalized: 0.5,
    });
  });
  it('hands the scorer the bound schema', async () => {
    const schema = { type: 'numeric' as const, min: 0, max: 1, description: 'x' };
    let seen: unknown;
    await runEval(bound((p) => ((seen = p.schema), { score: 1 }), schema), params({ schema: undefined }));
    expect(seen).toBe(schema);
  });
  it('records a sync throw, an async rejection and a non-Error throw', async () => {
    expect(await runEval(bound(() => { throw new Error('boom'); }), params())).toEqual({ error: 'boom' });
    expect(await runEval(bound(async () => Promise.reject(new TypeError('bad type'))), params())).toEqual({ error: 'bad type' });
    expect(await runEval(bound(() => { throw 'plain'; }), params())).toEqual({ error: 'plain' });
    expect(await runEval(bound(() => { throw { code: 1 }; }), params())).toEqual({ error: 'non-error thrown: {"code":1}' });
  });
  it('times a hanging async scorer out', async () => {
    const hang: Scorer = () => new Promise(() => undefined);
    expect(await runEval(bound(hang), params(), { timeoutMs: 20 })).toEqual({ error: 'timed out after 0.02s' });
    expect([formatSeconds(30_000), formatSeconds(1500), formatSeconds(250), formatSeconds(200)]).toEqual(['30s', '1.5s', '0.25s', '0.2s']);
  });
  it('a scorer that rejects after its timeout does not leak an unhandled rejection', async () => {
    let rejectLate: (error: Error) => void = () => {};
    const late: Scorer = () => new Promise((_, reject) => (rejectLate = reject));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await runEval(bound(late), params(), { timeoutMs: 5 })).toEqual({ error: 'timed out after 0.005s' });
      // The rejection comes after the timeout; Node reports an unhandled one once the microtasks
      // of this turn have run, before the next turn's setImmediate.
      rejectLate(new Error('late'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
  it('records a schema break', async () => {
    expect(await runEval(bound(() => ({ reason: 'no verdict' })), params())).toEqual({
      error: 'a boolean score needs "passed" (or a "score", where >= 0.5 means passed)',
    });
    expect(await runEval(bound((() => 'yes') as unknown as Scorer), params())).toEqual({
      error: 'a scorer must return an object like { passed, score, label, reason }, got the string "yes"',
    });
  });
  it('marks results without a schema as untyped', async () => {
    const untyped: BoundEval = { name: 'e', scorer: () => ({ score: 5 }), schema: undefined, source: 'user' };
    expect(await runEval(untyped, params())).toEqual({ score: 5, untyped: true });
  });
  it('an abort ends the eval with an error', async () => {
    const controller = new AbortController();
    const pending = runEval(bound(() => new Promise(() => undefined)), params(), { signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ error: 'aborted' });
    expect(await runEval(bound(() => ({ passed: true })), params(), { signal: controller.signal })).toEqual({ error: 'aborted' });
  });
});
