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

  // 1,234 of 2,000 rows after 10 s, 12 errored, paced: the whole line is 107 characters, 86 without the rate and the percentage.
  const pacedRun = async (out: MemoryStream, isTTY: boolean, paced: string): Promise<string[]> => {
    let now = 0;
    const progress = createProgressReporter(out, { now: () => now, isTTY, redrawMs: 0, intervalMs: 1, minLineMs: 0 });
    await progress.onRunStart?.({ ...info, total: 2000 });
    progress.paced(paced);
    const lines: string[] = [];
    for (let i = 0; i < 1234; i += 1) {
      now = Math.round(((i + 1) * 10_000) / 1234);
      out.text = '';
      await progress.onRowEnd?.(i < 12 ? { ...rows[0]!, error: 'boom', errorCode: 'MODEL_HTTP_500', evals: {} } : rows[0]!);
      if (out.text !== '') lines.push(out.text);
    }
    return lines;
  };

  test.each([
    ['100 req/s by the provider', '1234/2000 rows · pass 99.0% · 12 errored · paced: 100 req/s by the provider'],
    ['16,667 tokens/s by --tpm', '1234/2000 rows · pass 99.0% · 12 errored · paced: 16,667 tokens/s by --tpm'],
  ])('at 80 columns the pace stands whole (%s): the rate, the percentage and the ETA are left out first', async (paced, expected) => {
    const out = new MemoryStream();
    out.columns = 80;
    const lines = await pacedRun(out, true, paced);
    expect(lines.at(-1)).toBe(`\r\x1b[2K${expected}`);
    expect(expected.length).toBeLessThanOrEqual(79);
  });

  test('piped, the line is fitted to 80 columns the same way', async () => {
    const lines = await pacedRun(new MemoryStream(), false, '100 req/s by the provider');
    expect(lines.at(-1)).toBe('1234/2000 rows · pass 99.0% · 12 errored · paced: 100 req/s by the provider\n');
  });

  test('a wide terminal shows the whole line', async () => {
    const out = new MemoryStream();
    out.columns = 200;
    const lines = await pacedRun(out, true, '100 req/s by the provider');
    expect(lines.at(-1)).toBe('\r\x1b[2K1234/2000 rows (62%) · pass 99.0% · 12 errored · 123.4 rows/s · ETA 6.2s · paced: 100 req/s by the provider');
  });

  test("the summary's Rate line: 429s waited out and the time spent waiting; none without a wait", () => {
    const limited = formatSummary({ ...summary, rateLimit: { refused: 14, waitedMs: 19_600 } }, info);
    expect(limited.filter((line) => line.startsWith('  Rate:'))).toEqual(['  Rate:     14 requests refused (429) and waited out, 19.6s waiting for the rate limit']);
    expect(formatSummary(summary, info).some((line) => line.startsWith('  Rate:'))).toBe(false);
  });
});
