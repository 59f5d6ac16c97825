import { describe, expect, it } from 'vitest';
import { LONG_RUN_ROWS, tuneHeapForRun } from '../../src/cli/heap-tuning.js';
import { cliProject } from './cli-project.js';

// One test: the cap is process-wide and, once on, stays on.
it('caps heap growth only for long runs, and never over a value given on the command line', () => {
  expect(tuneHeapForRun(LONG_RUN_ROWS - 1, [])).toBe(false);
  expect(tuneHeapForRun(0, [])).toBe(false);
  expect(tuneHeapForRun(LONG_RUN_ROWS, ['--heap-growing-percent=80'])).toBe(false);
  expect(tuneHeapForRun(undefined, ['--heap-growing-percent=80'])).toBe(false);
  expect(tuneHeapForRun(LONG_RUN_ROWS, [])).toBe(true);
  // Later runs of the same process keep it.
  expect(tuneHeapForRun(10, [])).toBe(true);
});

interface HeapLimit {
  /** The growth factor V8 chose from its GC and mutator speeds. */
  dynamic: string;
  /** The factor it applied to the next limit: `--heap-growing-percent`, when set, replaces the dynamic one. */
  applied: string;
}

/**
 * The factors V8 reports after each full GC under `--trace-gc-verbose`:
 * `[HeapController] factor 4.0 based on mu=…` then `[HeapController] Limit: old size: …, new limit: … (1.5)`.
 */
function heapLimits(trace: string): HeapLimit[] {
  const limits: HeapLimit[] = [];
  let dynamic: string | undefined;
  for (const line of trace.split('\n')) {
    const chosen = /\[HeapController\] factor ([\d.]+) based on/.exec(line);
    if (chosen) dynamic = chosen[1];
    const applied = /\[HeapController\] Limit: .*\(([\d.]+)\)$/.exec(line);
    if (applied && dynamic !== undefined) limits.push({ dynamic, applied: applied[1] ?? '' });
  }
  return limits;
}

/**
 * Runs the CLI over `rows` pre-generated rows (no model needed) under V8's own trace of its heap
 * limits, so the test sees the flag in effect inside the real process rather than trusting the
 * helper's return value. `--gc-global` makes every collection a full one, so even a short run
 * recomputes its limit many times after the run has started.
 */
async function traceRun(rows: number, nodeArgs: string[] = []): Promise<HeapLimit[]> {
  const dataset = Array.from({ length: rows }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}`, output: `w${i}` })).join('\n');
  const project = await cliProject({ 'datasets/words.jsonl': `${dataset}\n` });
  try {
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', '--format', 'jsonl', '--output', 'report.jsonl'], {
      nodeArgs: ['--trace-gc-verbose', '--gc-global', ...nodeArgs],
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await project.read('report.jsonl')).split('\n').filter(Boolean)).toHaveLength(rows);
    return heapLimits(result.stdout);
  } finally {
    await project.cleanup();
  }
}

describe('the heap growth cap in a real run', { timeout: 120_000 }, () => {
  it(`is on in a run of ${LONG_RUN_ROWS} rows: V8 applies 1.5 in place of the factor it chose`, async () => {
    const limits = await traceRun(LONG_RUN_ROWS);
    // Limits computed after the run started use 1.5 whatever V8 chose (startup GCs came before).
    expect(limits.at(-1)?.applied).toBe('1.5');
    expect(limits.filter((limit) => limit.applied === '1.5' && limit.dynamic !== '1.5').length).toBeGreaterThan(0);
  });

  it(`is off in a run of ${LONG_RUN_ROWS - 1} rows: no limit uses 1.5 where V8 chose another factor`, async () => {
    const limits = await traceRun(LONG_RUN_ROWS - 1);
    expect(limits.length).toBeGreaterThan(3);
    // (V8 may still lower a factor itself, to 1.3 or 1.1, when it grows the heap slowly to save memory.)
    expect(limits.filter((limit) => limit.applied === '1.5' && limit.dynamic !== '1.5')).toEqual([]);
  });

  it('leaves a --heap-growing-percent given to node alone', async () => {
    const limits = await traceRun(LONG_RUN_ROWS, ['--heap-growing-percent=80']);
    expect(limits.length).toBeGreaterThan(3);
    expect(new Set(limits.map((limit) => limit.applied))).toEqual(new Set(['1.8']));
  });
});
