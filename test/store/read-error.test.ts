import { describe, expect, it } from 'vitest';
import { RunStoreError, storeReadError } from '../../src/store/index.js';

/** An error shaped as Node's fs throws it. */
function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: open '${path}'`), { code, path, syscall: 'open' });
}

describe('storeReadError', () => {
  it('names the file that could not be read, with the cause in words and a hint (exit-2 typed error)', () => {
    const error = storeReadError(fsError('EACCES', '/p/.agentmark/runs/r1/results.jsonl'), '/p/.agentmark/runs/r1/results.jsonl');
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({
      code: 'STORE_READ_FAILED',
      message: 'cannot read results.jsonl: permission denied (EACCES)',
      location: { file: '/p/.agentmark/runs/r1/results.jsonl' },
      hint: 'make it readable, then run again',
    });
  });

  it('leaves anything else as it was: a bug keeps its stack, a typed error its code', () => {
    const bug = new TypeError('x is undefined');
    expect(storeReadError(bug, '/f')).toBe(bug);
    const missing = fsError('ENOENT', '/f');
    expect(storeReadError(missing, '/f')).toBe(missing);
    const typed = new RunStoreError('STORE_RESULTS_MISSING', 'gone');
    expect(storeReadError(typed, '/f')).toBe(typed);
  });
});
