import { describe, expect, test } from 'vitest';
import type { RowResult } from '../../src/experiment/types.js';
import { createTableReporter } from '../../src/report/index.js';
import { MemoryStream, info, play, rows } from './fixtures.js';

const SUMMARY = `SUMMARY
  Rows:     4 run, 1 errored, 1 cached, 0 pre-generated
  Evals:
    exact  pass 66.7% (2/3, 95% CI 20.8%–93.9%), raw mean 0.67 (95% CI 0.01–1.00), 0 errors
    tone   raw mean 0.70 (95% CI 0.31–1.00), 1 error
  Latency:  p50 120ms, p95 340ms (live calls only)
  Tokens:   20 in / 3 out
  Cost:     $0.0002
  Flaky:    1 row: #0 (exact)
  Gates:
    ✘ threshold: 66.7% of verdicts passed, below 80%
    ✘ errors: 1 row errored
  Result:   FAILED
  Run:      20261130-031500-ab12cd (.agentmark/runs/20261130-031500-ab12cd)
`;
/** At 80 columns an eval line that would not fit goes on under itself, after the name. */
const SUMMARY_80 = SUMMARY.replace(
  '    exact  pass 66.7% (2/3, 95% CI 20.8%–93.9%), raw mean 0.67 (95% CI 0.01–1.00), 0 errors\n',
  '    exact  pass 66.7% (2/3, 95% CI 20.8%–93.9%),\n           raw mean 0.67 (95% CI 0.01–1.00), 0 errors\n',
);

describe('table reporter', () => {
  test('prints rows in index.repeat order, eval cells, errors, then the summary', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out));
    expect(out.text).toBe(
      `┌─────┬────────────────────────────────┬───────────────────────────────┬─────────────────┬────────────────────────┬───────────────────────────────────────────┐
│ #   │ Input                          │ AI Result                     │ Expected Output │ exact                  │ tone                                      │
├─────┼────────────────────────────────┼───────────────────────────────┼─────────────────┼────────────────────────┼───────────────────────────────────────────┤
│ 0.0 │ {"q":"2+2"}                    │ 4                             │ 4               │ PASS (1.00 - match)    │ score: 0.5, label: neutral                │
│ 0.1 │ {"q":"2+2"}                    │ four                          │ 4               │ FAIL (0.00 - mismatch) │ ERROR: judge timed out                    │
│ 1.0 │ {"q":"say \\"hi\\", then\\nwave"} │ hi, <wave> & "bye"            │ N/A             │ PASS (1.00)            │ score: 0.9, label: friendly, reason: warm │
│ 1.1 │ {"q":"say \\"hi\\", then\\nwave"} │ ERROR: model call failed: 500 │ N/A             │ -                      │ -                                         │
└─────┴────────────────────────────────┴───────────────────────────────┴─────────────────┴────────────────────────┴───────────────────────────────────────────┘

${SUMMARY}`,
    );
  });

  test('fits a terminal width: free text is cut first, then eval reasons (never the verdict or the eval name)', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 110 }));
    expect(out.text.split('\n\nSUMMARY')[0]).toBe(
      `┌─────┬───────────────┬───────────────┬───────────────┬────────────────────────┬─────────────────────────────┐
│ #   │ Input         │ AI Result     │ Expected Out… │ exact                  │ tone                        │
├─────┼───────────────┼───────────────┼───────────────┼────────────────────────┼─────────────────────────────┤
│ 0.0 │ {"q":"2+2"}   │ 4             │ 4             │ PASS (1.00 - match)    │ score: 0.5, label: neutral  │
│ 0.1 │ {"q":"2+2"}   │ four          │ 4             │ FAIL (0.00 - mismatch) │ ERROR: judge timed out      │
│ 1.0 │ {"q":"say \\"… │ hi, <wave> &… │ N/A           │ PASS (1.00)            │ score: 0.9, label: friendly │
│ 1.1 │ {"q":"say \\"… │ ERROR: model… │ N/A           │ -                      │ -                           │
└─────┴───────────────┴───────────────┴───────────────┴────────────────────────┴─────────────────────────────┘`,
    );
  });

  test('at 200 columns the whole table fits as it is', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 200 }));
    expect(out.text).toBe(
      `┌─────┬────────────────────────────────┬───────────────────────────────┬─────────────────┬────────────────────────┬───────────────────────────────────────────┐
│ #   │ Input                          │ AI Result                     │ Expected Output │ exact                  │ tone                                      │
├─────┼────────────────────────────────┼───────────────────────────────┼─────────────────┼────────────────────────┼───────────────────────────────────────────┤
│ 0.0 │ {"q":"2+2"}                    │ 4                             │ 4               │ PASS (1.00 - match)    │ score: 0.5, label: neutral                │
│ 0.1 │ {"q":"2+2"}                    │ four                          │ 4               │ FAIL (0.00 - mismatch) │ ERROR: judge timed out                    │
│ 1.0 │ {"q":"say \\"hi\\", then\\nwave"} │ hi, <wave> & "bye"            │ N/A             │ PASS (1.00)            │ score: 0.9, label: friendly, reason: warm │
│ 1.1 │ {"q":"say \\"hi\\", then\\nwave"} │ ERROR: model call failed: 500 │ N/A             │ -                      │ -                                         │
└─────┴────────────────────────────────┴───────────────────────────────┴─────────────────┴────────────────────────┴───────────────────────────────────────────┘

${SUMMARY}`,
    );
  });

  test('at 80 columns the reasons go, the verdicts and scores stay', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 80 }));
    expect(out.text).toBe(
      `┌─────┬───────────────┬──────────────┬──────────────┬─────────────┬────────────┐
│ #   │ Input         │ AI Result    │ Expected Ou… │ exact       │ tone       │
├─────┼───────────────┼──────────────┼──────────────┼─────────────┼────────────┤
│ 0.0 │ {"q":"2+2"}   │ 4            │ 4            │ PASS (1.00) │ score: 0.5 │
│ 0.1 │ {"q":"2+2"}   │ four         │ 4            │ FAIL (0.00) │ ERROR      │
│ 1.0 │ {"q":"say \\"… │ hi, <wave> … │ N/A          │ PASS (1.00) │ score: 0.9 │
│ 1.1 │ {"q":"say \\"… │ ERROR: mode… │ N/A          │ -           │ -          │
└─────┴───────────────┴──────────────┴──────────────┴─────────────┴────────────┘

${SUMMARY_80}`,
    );
  });

  test('narrower, Expected Output and Input are left out, and a line says so', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 60 }));
    expect(out.text.split('\n\nSUMMARY')[0]).toBe(
      `┌─────┬────────────────┬─────────────┬─────────────────────┐
│ #   │ AI Result      │ exact       │ tone                │
├─────┼────────────────┼─────────────┼─────────────────────┤
│ 0.0 │ 4              │ PASS (1.00) │ score: 0.5          │
│ 0.1 │ four           │ FAIL (0.00) │ ERROR: judge timed… │
│ 1.0 │ hi, <wave> & … │ PASS (1.00) │ score: 0.9          │
│ 1.1 │ ERROR: model … │ -           │ -                   │
└─────┴────────────────┴─────────────┴─────────────────────┘
Not shown, to fit 60 columns: Expected Output, Input (all of
it: -o report.html).`,
    );
  });

  test('at 40 columns, where no table fits, one block per row, values wrapped at spaces', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 40 }));
    expect(out.text.split('\n\nSUMMARY')[0]).toBe(
      `── #0.0 ────────────────────────────────
  Input            {"q":"2+2"}
  AI Result        4
  Expected Output  4
  exact            PASS (1.00 - match)
  tone             score: 0.5, label:
                   neutral
── #0.1 ────────────────────────────────
  Input            {"q":"2+2"}
  AI Result        four
  Expected Output  4
  exact            FAIL (0.00 -
                   mismatch)
  tone             ERROR: judge timed
                   out
── #1.0 ────────────────────────────────
  Input            {"q":"say \\"hi\\",
                   then\\nwave"}
  AI Result        hi, <wave> & "bye"
  Expected Output  N/A
  exact            PASS (1.00)
  tone             score: 0.9, label:
                   friendly, reason:
                   warm
── #1.1 ────────────────────────────────
  Input            {"q":"say \\"hi\\",
                   then\\nwave"}
  AI Result        ERROR: model call
                   failed: 500
  Expected Output  N/A
  exact            -
  tone             -`,
    );
    expect(Math.max(...(out.text.split('\n\nSUMMARY')[0] ?? '').split('\n').map((line) => Array.from(line).length))).toBe(40);
  });

  test('with colour, blocks and the summary colour verdicts and errors; without escapes it is the plain report', async () => {
    const plain = new MemoryStream();
    await play(createTableReporter(plain, { width: 40 }));
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 40, color: true }));
    // picocolors' codes: green 32, red 31 (both closed by 39), bold 1 (closed by 22).
    expect(out.text).toContain('  exact            \x1b[32mPASS (1.00 - match)\x1b[39m\n');
    expect(out.text).toContain('  exact            \x1b[31mFAIL (0.00 -\x1b[39m\n                   \x1b[31mmismatch)\x1b[39m\n');
    expect(out.text).toContain('  AI Result        \x1b[1m\x1b[31mERROR: model call\x1b[39m\x1b[22m\n');
    expect(out.text).toContain('  Result:   \x1b[1m\x1b[31mFAILED\x1b[39m\x1b[22m\n');
    expect(out.text.replace(/\x1b\[\d+m/g, '')).toBe(plain.text);
    // In a fitted table too, with columns left out: the verdict columns keep their colours.
    const fitted = new MemoryStream();
    await play(createTableReporter(fitted, { width: 60, color: true }));
    expect(fitted.text).toContain('│ 0.1 │ four           │ \x1b[31mFAIL (0.00)\x1b[39m │ \x1b[1m\x1b[31mERROR: judge timed…\x1b[39m\x1b[22m │\n');
  });

  test('a long word is the only thing split; narrower still, values go under their labels', async () => {
    const row: RowResult = { ...rows[3]!, error: undefined, output: 'x'.repeat(50), evals: { exact: { passed: true } } };
    const wide = new MemoryStream();
    await play(createTableReporter(wide, { width: 27 }), [row], { ...info, evalNames: ['exact'] });
    expect(wide.text.split('\n\nSUMMARY')[0]).toBe(
      [
        '── #0 ─────────────────────',
        '  Input',
        '    {"q":"2+2"}',
        '  AI Result',
        `    ${'x'.repeat(23)}`,
        `    ${'x'.repeat(23)}`,
        `    ${'x'.repeat(4)}`,
        '  Expected Output',
        '    4',
        '  exact',
        '    PASS',
      ].join('\n'),
    );
  });

  test('truncates long cells with …, shows newlines as spaces, and plain indexes without repeats', async () => {
    const out = new MemoryStream();
    const row: RowResult = {
      ...rows[3]!,
      output: 'line one\nline two is long',
      evals: { exact: { score: 1, passed: true, reason: 'because it matched well' } },
    };
    await play(createTableReporter(out, { truncate: 12 }), [row], { ...info, evalNames: ['exact'] });
    expect(out.text.split('\n').slice(0, 5).join('\n')).toBe(
      `┌───┬─────────────┬──────────────┬─────────────────┬──────────────┐
│ # │ Input       │ AI Result    │ Expected Output │ exact        │
├───┼─────────────┼──────────────┼─────────────────┼──────────────┤
│ 0 │ {"q":"2+2"} │ line one li… │ 4               │ PASS (1.00 … │
└───┴─────────────┴──────────────┴─────────────────┴──────────────┘`,
    );
  });

  test('truncate 0 keeps cells whole', async () => {
    const out = new MemoryStream();
    const row: RowResult = { ...rows[3]!, output: 'x'.repeat(300), evals: {} };
    await play(createTableReporter(out, { truncate: 0 }), [row], { ...info, evalNames: [] });
    expect(out.text).toContain(`│ ${'x'.repeat(300)} │`);
  });

  test('caps the table at maxTableRows, keeps the first rows in order, and says where the rest are', async () => {
    const out = new MemoryStream();
    const many: RowResult[] = [];
    for (let index = 9; index >= 0; index--) many.push({ ...rows[3]!, index, evals: {} });
    await play(createTableReporter(out, { maxTableRows: 3 }), many, { ...info, evalNames: [] });
    const lines = out.text.split('\n');
    expect(lines.slice(0, 8).join('\n')).toBe(
      `┌───┬─────────────┬───────────┬─────────────────┐
│ # │ Input       │ AI Result │ Expected Output │
├───┼─────────────┼───────────┼─────────────────┤
│ 0 │ {"q":"2+2"} │ 4         │ 4               │
│ 1 │ {"q":"2+2"} │ 4         │ 4               │
│ 2 │ {"q":"2+2"} │ 4         │ 4               │
└───┴─────────────┴───────────┴─────────────────┘
… 7 more rows not shown (first 3 of 10); full results: .agentmark/runs/20261130-031500-ab12cd/results.jsonl`,
    );
    // The summary comes from the runner, so the cap never changes it.
    expect(out.text.endsWith(SUMMARY)).toBe(true);
  });

  test('a run without rows still prints the summary', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out), []);
    expect(out.text).toBe(`No rows were run.\n\n${SUMMARY}`);
  });
});

describe('a run of more than 50 rows', () => {
  const passing = (index: number): RowResult => ({ ...rows[3]!, index, output: '4', evals: { exact: { score: 1, passed: true } } });
  const failing = (index: number): RowResult => ({ ...rows[3]!, index, output: 'five', evals: { exact: { score: 0, passed: false, reason: 'mismatch' } } });

  test('2,000 passing rows: no table, one line that says how to see them', async () => {
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 80 }), Array.from({ length: 2000 }, (_, i) => passing(i)), { ...info, evalNames: ['exact'] });
    expect(out.text.split('\n\nSUMMARY')[0]).toBe('All 2,000 rows passed; every row: --all-rows, or -o report.html.');
    expect(out.text.split('\n').length).toBeLessThan(40);
  });

  test('the failed and errored rows, the first 50 of them, with a count of the rest', async () => {
    const list = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? failing(i) : i === 7 ? { ...passing(i), error: 'model call failed: 500' } : passing(i)));
    const out = new MemoryStream();
    await play(createTableReporter(out, { width: 80 }), list, { ...info, evalNames: ['exact'] });
    const table = (out.text.split('\n\nSUMMARY')[0] ?? '').split('\n');
    // 67 failed rows (every third of 200) and one errored: 50 shown, 18 counted.
    expect(table.filter((line) => line.startsWith('│ ') && !line.startsWith('│ #'))).toHaveLength(50);
    expect(table.slice(0, 8)).toEqual([
      '┌─────┬─────────────┬────────────────┬────────────────┬────────────────────────┐',
      '│ #   │ Input       │ AI Result      │ Expected Outp… │ exact                  │',
      '├─────┼─────────────┼────────────────┼────────────────┼────────────────────────┤',
      '│ 0   │ {"q":"2+2"} │ five           │ 4              │ FAIL (0.00 - mismatch) │',
      '│ 3   │ {"q":"2+2"} │ five           │ 4              │ FAIL (0.00 - mismatch) │',
      '│ 6   │ {"q":"2+2"} │ five           │ 4              │ FAIL (0.00 - mismatch) │',
      '│ 7   │ {"q":"2+2"} │ ERROR: model … │ 4              │ PASS (1.00)            │',
      '│ 9   │ {"q":"2+2"} │ five           │ 4              │ FAIL (0.00 - mismatch) │',
    ]);
    expect(table.slice(-2)).toEqual([
      '50 of 200 rows shown: the failed and errored ones (18 more not shown); every',
      'row: --all-rows, or -o report.html.',
    ]);
  });

  test('allRows (--all-rows, -o) lists every row; 50 rows or fewer always do', async () => {
    const all = new MemoryStream();
    await play(createTableReporter(all, { allRows: true }), Array.from({ length: 60 }, (_, i) => passing(i)), { ...info, evalNames: ['exact'] });
    expect(all.text.split('\n').filter((line) => /^│ \d/.test(line))).toHaveLength(60);
    const small = new MemoryStream();
    await play(createTableReporter(small), Array.from({ length: 50 }, (_, i) => passing(i)), { ...info, evalNames: ['exact'] });
    expect(small.text.split('\n').filter((line) => /^│ \d/.test(line))).toHaveLength(50);
  });
});
