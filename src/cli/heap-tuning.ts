import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/** Below this many rows a run is over before the heap's slack matters. */
export const LONG_RUN_ROWS = 5000;

/** The heap a long run may grow to before the 1.5× growth cap binds (see `growthPercent`). */
export const HEAP_FLOOR_BYTES = 64 * 1024 * 1024;

/**
 * From this many rows on the floor is off and the 1.5× cap binds from the start: a million-row
 * run's live heap stays ~25 MB, so a 64 MB floor was ~45 MB more peak RSS (275 MB against the
 * 250 MB target, 234 MB without it, 2026-12-02), while 100,000 rows stayed at 210 MB.
 */
export const FLOOR_MAX_ROWS = 200_000;

/** The floor for a run of `expectedRows` (undefined: not known, as for the language server). */
export function heapFloorFor(expectedRows: number | undefined): number {
  return expectedRows !== undefined && expectedRows >= FLOOR_MAX_ROWS ? 0 : HEAP_FLOOR_BYTES;
}

/** The cap's growth percent: 1.5×. */
const CAP_PERCENT = 50;
/** V8's own largest dynamic factor is 4×; a floor never asks for more than 5×. */
const MAX_PERCENT = 400;

let tuned = false;

/**
 * The `--heap-growing-percent` for the next heap limit, given what was live after a full GC: the
 * limit is at least `HEAP_FLOOR_BYTES` (live × (1 + percent/100) ≥ the floor), at least 1.5× what
 * is live, and at most 5× it. With 16 MB live: 300 (a 64 MB limit); 32 MB: 100; 48 MB and more:
 * 50, the cap itself.
 */
export function growthPercent(liveBytes: number, floorBytes: number = HEAP_FLOOR_BYTES): number {
  if (floorBytes === 0) return CAP_PERCENT;
  if (!(liveBytes > 0)) return MAX_PERCENT;
  // In integers of bytes × 100, so a floor that is an exact multiple gives an exact percent.
  const percent = Math.ceil((floorBytes * 100) / liveBytes) - 100;
  return Math.min(MAX_PERCENT, Math.max(CAP_PERCENT, percent));
}

/**
 * Caps V8's heap growth factor at 1.5× for a long run, once its heap is past `HEAP_FLOOR_BYTES`.
 * V8 lets the old space grow to up to 4× what survived the last full GC whenever collecting is
 * cheap next to the program's own work, and a long run's churn of short-lived row objects is
 * exactly that: peak RSS then tracks the run's length, not its live data. 1.5× is a growth
 * factor, not a limit (the heap still grows with what is live). Measured at 100,000 rows,
 * concurrency 100: peak RSS 269 MB → 164 MB, wall time 64 s → 54 s.
 *
 * Below the floor the factor is whatever reaches it (`growthPercent`, set again after every full
 * GC): 1.5× of a run's ~17 MB of live rows was a full GC every ~10 MB promoted, 7 of them in a
 * 10,000-row run against the SDK floor's 1 (~7% of the run's CPU, paired), 13% at 50,000 rows
 * (from `FLOOR_MAX_ROWS` rows on there is no floor: peak memory matters more there). A
 * short run only pays for the extra full GCs (+6% wall at 1,000 rows), so it is left alone. V8
 * reads the flag at every GC, so setting it mid-process works; a value given on node's command
 * line wins. Returns whether the cap is on.
 */
export function tuneHeapForRun(expectedRows: number | undefined, execArgv: readonly string[] = process.execArgv): boolean {
  if (tuned) return true;
  if (expectedRows !== undefined && expectedRows < LONG_RUN_ROWS) return false;
  if (execArgv.some((arg) => arg.includes('heap-growing-percent'))) return false;
  const floor = heapFloorFor(expectedRows);
  let percent = growthPercent(getHeapStatistics().used_heap_size, floor);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  // Full GCs are few (a handful a run): one reading of the heap after each.
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) return;
    const next = growthPercent(getHeapStatistics().used_heap_size, floor);
    if (next === percent) return;
    percent = next;
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  tuned = true;
  return true;
}
