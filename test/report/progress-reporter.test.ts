import { describe, expect, test } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { createProgressReporter } from '../../src/report/index.js';
import { MemoryStream, inOrder, info, rows, summary } from './fixtures.js';

const clock = (): { now: () => number; set: (ms: number) => void } => {
  let time = 0;
  return { now: () => time, set: (ms) => (time = ms) };
};

const passRow = (index: number): RowResult => ({ ...rows[3]!, index });

describe('progress reporter', () => {
  test('on a TTY redraws one line, at most every 100ms, and clears it at the end', async () => {
    const out = new MemoryStream();
    const time = clock();
    const progress = createProgressReporter(out, { now: time.now, isTTY: true });
    await progress.onRunStart?.({ ...info, total: 4 });
    expect(out.text).toBe('\r\x1b[2K0/4 rows (0%)');
    out.text = '';
    time.set(50);
    await progress.onRowEnd?.(passRow(0));
    expect(out.text).toBe(''); // rate-limited
    time.set(1000);
    await progress.onRowEnd?.(rows[1]!);
    // Two rows are not yet a measured rate: no ETA.
    expect(out.text).toBe('\r\x1b[2K2/4 rows (50%) · pass 50.0% · 2.0 rows/s');
    out.text = '';
    time.set(1020);
    await progress.onRowEnd?.(rows[2]!);
    expect(out.text).toBe('');
    time.set(1040);
    await progress.onRowEnd?.(passRow(1));
    // The last row always draws, even inside the rate limit. exact passed 2 of 4: the errored
    // row (evals {}) did not pass, as in the summary; tone gives no verdicts, its error no pass rate.
    expect(out.text).toBe('\r\x1b[2K4/4 rows (100%) · pass 50.0% · 1 errored · 3.8 rows/s');
    out.text = '';
    await progress.onRunEnd?.(summary, info, inOrder([]));
    expect(out.text).toBe('\r\x1b[2K');
  });

  test('fits the line to the terminal width, leaving the percentage out before cutting the count', async () => {
    const out = new MemoryStream();
    out.columns = 10;
    const progress = createProgressReporter(out, { now: () => 0, isTTY: true });
    await progress.onRunStart?.({ ...info, total: 4 });
    expect(out.text).toBe('\r\x1b[2K0/4 rows');
  });

  test('without a TTY prints a plain line every 10% or every interval', async () => {
    const out = new MemoryStream();
    const time = clock();
    const progress = createProgressReporter(out, { now: time.now, isTTY: false, intervalMs: 5000 });
    await progress.onRunStart?.({ ...info, total: 20 });
    expect(out.text).toBe('');
    time.set(1000);
    await progress.onRowEnd?.(passRow(0)); // 5%: nothing yet
    expect(out.text).toBe('');
    time.set(2000);
    await progress.onRowEnd?.(passRow(1)); // 10%
    time.set(9000);
    await progress.onRowEnd?.(passRow(2)); // 15%, but 7 s since the last line
    time.set(9500);
    await progress.onRowEnd?.(passRow(3)); // 20%
    expect(out.text).toBe(
      '2/20 rows (10%) · pass 100.0% · 1.0 rows/s\n' +
        '3/20 rows (15%) · pass 100.0% · 0.3 rows/s · ETA 51.0s\n' +
        '4/20 rows (20%) · pass 100.0% · 0.4 rows/s · ETA 38.0s\n',
    );
    out.text = '';
    await progress.onRunEnd?.(summary, info, inOrder([]));
    expect(out.text).toBe('');
  });

  test('no ETA until the rate is measured over 3 rows and a second', async () => {
    const out = new MemoryStream();
    const time = clock();
    const progress = createProgressReporter(out, { now: time.now, isTTY: true, minLineMs: 0 });
    await progress.onRunStart?.({ ...info, total: 900 });
    for (let index = 0; index < 3; index += 1) {
      time.set(200 * (index + 1));
      await progress.onRowEnd?.(passRow(index));
    }
    // Three rows in 0.6 s: not a second yet.
    expect(out.text.split('\r\x1b[2K').at(-1)).toBe('3/900 rows (0%) · pass 100.0% · 5.0 rows/s');
    time.set(1000);
    await progress.onRowEnd?.(passRow(3));
    expect(out.text.split('\r\x1b[2K').at(-1)).toBe('4/900 rows (0%) · pass 100.0% · 4.0 rows/s · ETA 3m 44s');
  });

  test('without a TTY a short run ends on the final count, with no ETA left standing', async () => {
    const out = new MemoryStream();
    const time = clock();
    const progress = createProgressReporter(out, { now: time.now, isTTY: false });
    await progress.onRunStart?.({ ...info, total: 6 });
    time.set(500);
    await progress.onRowEnd?.(passRow(0));
    // The other rows end inside the 250 ms between plain lines: none of them prints.
    for (let index = 1; index < 6; index += 1) {
      time.set(500 + index * 20);
      await progress.onRowEnd?.(passRow(index));
    }
    expect(out.text).toBe('1/6 rows (17%) · pass 100.0% · 2.0 rows/s\n');
    time.set(650);
    await progress.onRunEnd?.(summary, info, inOrder([]));
    expect(out.text).toBe('1/6 rows (17%) · pass 100.0% · 2.0 rows/s\n6/6 rows (100%) · pass 100.0% · 9.2 rows/s\n');
  });

  test('without a TTY an interrupted run ends on the count reached, with no ETA', async () => {
    const out = new MemoryStream();
    const time = clock();
    const progress = createProgressReporter(out, { now: time.now, isTTY: false });
    await progress.onRunStart?.({ ...info, total: 6 });
    time.set(500);
    await progress.onRowEnd?.(passRow(0));
    time.set(520);
    await progress.onRowEnd?.(passRow(1));
    out.text = '';
    time.set(1000);
    await progress.onRunEnd?.(summary, info, inOrder([]));
    expect(out.text).toBe('2/6 rows (33%) · pass 100.0% · 2.0 rows/s\n');
  });

  test('without a total it counts rows', async () => {
    const out = new MemoryStream();
    const progress = createProgressReporter(out, { now: () => 0, isTTY: true });
    const { total: _total, ...noTotal } = info;
    await progress.onRunStart?.(noTotal);
    expect(out.text).toBe('\r\x1b[2K0 rows');
  });
});
