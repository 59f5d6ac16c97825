import { describe, expect, it } from 'vitest';
import { FLOOR_MAX_ROWS, HEAP_FLOOR_BYTES, LONG_RUN_ROWS, growthPercent, heapFloorFor, tuneHeapForRun } from '../../src/cli/heap-tuning.js';
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

describe('growthPercent', () => {
  const MiB = 1024 * 1024;
  it('grows the heap to the 64 MB floor, by 1.5× to 5× what is live', () => {
    expect(HEAP_FLOOR_BYTES).toBe(64 * MiB);
    // By hand: 64 / live − 1, in percent, rounded up, held to [50, 400].
    expect(growthPercent(16 * MiB)).toBe(300);
    expect(growthPercent(20 * MiB)).toBe(220);
    expect(growthPercent(32 * MiB)).toBe(100);
    expect(growthPercent(30 * MiB)).toBe(114); // 113.33…
    expect(growthPercent(40 * MiB)).toBe(60);
    expect(growthPercent(48 * MiB)).toBe(50); // 33.3…: the cap
    expect(growthPercent(500 * MiB)).toBe(50);
    expect(growthPercent(10 * MiB)).toBe(400); // 540: V8's own most is 4×
    expect(growthPercent(0)).toBe(400);
  });
  it('has no floor from FLOOR_MAX_ROWS rows on: the 1.5× cap from the start', () => {
    expect(FLOOR_MAX_ROWS).toBe(200_000);
    expect(heapFloorFor(FLOOR_MAX_ROWS - 1)).toBe(HEAP_FLOOR_BYTES);
    expect(heapFloorFor(undefined)).toBe(HEAP_FLOOR_BYTES);
    expect(heapFloorFor(FLOOR_MAX_ROWS)).toBe(0);
    expect(heapFloorFor(1_000_000)).toBe(0);
    expect(growthPercent(16 * MiB, 0)).toBe(50);
    expect(growthPercent(0, 0)).toBe(50);
  });
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
  it(`is on in a run of ${LONG_RUN_ROWS} rows: V8 applies the floor's factor in place of the one it chose`, async () => {
    const limits = await traceRun(LONG_RUN_ROWS);
    // Limits computed after the run started use 1 + growthPercent/100 whatever V8 chose (startup
    // GCs came before): between 1.5 and 5, and the heap stays far below the floor here.
    const ours = limits.filter((limit) => limit.applied !== limit.dynamic);
    expect(ours.length).toBeGreaterThan(0);
    // Above the cap's 1.5 while the heap is below the floor (the old cap applied 1.5 throughout).
    expect(ours.some((limit) => Number(limit.applied) > 1.5)).toBe(true);
    for (const limit of limits.slice(limits.indexOf(ours[0]!))) {
      expect(Number(limit.applied)).toBeGreaterThanOrEqual(1.5);
      expect(Number(limit.applied)).toBeLessThanOrEqual(5);
    }
  });

  it(`is off in a run of ${LONG_RUN_ROWS - 1} rows: every limit uses the factor V8 chose`, async () => {
    const limits = await traceRun(LONG_RUN_ROWS - 1);
    expect(limits.length).toBeGreaterThan(3);
    // (V8 may still lower a factor itself, to 1.3 or 1.1, when it grows the heap slowly to save memory.)
    expect(limits.filter((limit) => limit.applied !== limit.dynamic && limit.applied !== '1.3' && limit.applied !== '1.1')).toEqual([]);
  });

  it('leaves a --heap-growing-percent given to node alone', async () => {
    const limits = await traceRun(LONG_RUN_ROWS, ['--heap-growing-percent=80']);
    expect(limits.length).toBeGreaterThan(3);
    expect(new Set(limits.map((limit) => limit.applied))).toEqual(new Set(['1.8']));
  });
});
