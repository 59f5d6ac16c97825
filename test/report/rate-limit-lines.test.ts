import { describe, expect, test } from 'vitest';
import { createProgressReporter, formatSummary } from '../../src/report/index.js';
import { MemoryStream, info, inOrder, rows, summary } from './fixtures.js';

describe('what a rate-limited run shows', () => {
  test('the progress line says what paces the run while it does, and not at the end', async () => {
    const out = new MemoryStream();
    let now = 0;
    const progress = createProgressReporter(out, { now: () => now, isTTY: true });
    await progress.onRunStart?.({ ...info, total: 4 });
    progress.paced('100 req/s by the provider');
    now = 1000;
    out.text = '';
    // No ETA yet: fewer than 3 rows have ended (issue 39), so the line is the rate and the pace.
    await progress.onRowEnd?.(rows[0]!);
    expect(out.text).toBe('\r\x1b[2K1/4 rows (25%) · pass 100.0% · 1.0 rows/s · paced: 100 req/s by the provider');
    progress.paced(undefined);
    now = 2000;
    out.text = '';
    await progress.onRowEnd?.(rows[3]!);
    expect(out.text).toBe('\r\x1b[2K2/4 rows (50%) · pass 100.0% · 1.0 rows/s');
    await progress.onRunEnd?.(summary, info, inOrder([]));
  });

  test("the summary's Rate line: 429s waited out and the time spent waiting; none without a wait", () => {
    const limited = formatSummary({ ...summary, rateLimit: { refused: 14, waitedMs: 19_600 } }, info);
    expect(limited.filter((line) => line.startsWith('  Rate:'))).toEqual(['  Rate:     14 requests refused (429) and waited out, 19.6s waiting for the rate limit']);
    expect(formatSummary(summary, info).some((line) => line.startsWith('  Rate:'))).toBe(false);
  });
});
