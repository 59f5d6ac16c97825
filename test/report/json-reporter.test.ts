import { expect, test } from 'vitest';
import { createJsonReporter, createJsonlReporter, reportRow } from '../../src/report/index.js';
import { MemoryStream, inOrder, info, play, rows, summary } from './fixtures.js';

/** The summary as the report writes it: the library's own, whose eval counts are named as counts (`verdictCount`, `passedCount`). */
const reported = summary;

/** fixtures.ts's rows[0] as a report row: every key, null where the row has none. */
const FIRST_ROW =
  '{"index":1,"line":2,"repeat":0,"input":{"q":"say \\"hi\\", then\\nwave"},"expectedOutput":null,"metadata":{},' +
  '"output":"hi, <wave> & \\"bye\\"","toolCalls":[],"evals":{' +
  '"exact":{"score":1,"passed":true,"label":null,"reason":null,"normalized":null,"error":null,"skipped":false},' +
  '"tone":{"score":0.9,"passed":null,"label":"friendly","reason":"warm","normalized":null,"error":null,"skipped":false}},' +
  '"error":null,"errorCode":null,"latencyMs":50,"usage":null,"costUsd":null,"judge":null,"finishReason":null,"cached":true,"pregenerated":false,"retries":0,"timedOut":false,"warmup":false,"batch":false,"hookErrors":[],"agent":null,"conversation":null,"simulator":null}';

test('json: one document with run info, summary and every row field, rows sorted', async () => {
  const out = new MemoryStream();
  await play(createJsonReporter(out));
  const sorted = [rows[3], rows[1], rows[0], rows[2]].map((row) => reportRow(row!));
  expect(out.text).toBe(`${JSON.stringify({ run: info, summary: reported, rows: sorted }, null, 2)}\n`);
  // The run's own verdict keeps its name: only the eval counts are renamed.
  expect((JSON.parse(out.text) as { summary: { passed: unknown } }).summary.passed).toBe(false);
  const parsed = JSON.parse(out.text) as { rows: Array<{ index: number; repeat: number; cached: boolean }> };
  expect(parsed.rows.map((row) => `${row.index}.${row.repeat}`)).toEqual(['0.0', '0.1', '1.0', '1.1']);
  expect(parsed.rows[2]).toEqual(JSON.parse(FIRST_ROW));
});

test('json: a run without rows is the same document with an empty list', async () => {
  const out = new MemoryStream();
  await play(createJsonReporter(out), []);
  expect(out.text).toBe(`${JSON.stringify({ run: info, summary: reported, rows: [] }, null, 2)}\n`);
});

test('jsonl: one line per row, written as each row ends', async () => {
  const out = new MemoryStream();
  const reporter = createJsonlReporter(out);
  await reporter.onRunStart?.(info);
  await reporter.onRowEnd?.(rows[0]!);
  // Streaming: the first row is out before the second finishes.
  expect(out.text).toBe(`${FIRST_ROW}\n`);
  await reporter.onRowEnd?.(rows[1]!);
  await reporter.onRunEnd?.(summary, info, inOrder(rows.slice(0, 2)));
  expect(out.text).toBe(`${FIRST_ROW}\n${JSON.stringify(reportRow(rows[1]!))}\n`);
});

test('every row carries every documented key, in order, null where there is none', async () => {
  const out = new MemoryStream();
  await play(createJsonlReporter(out));
  const keys = ['index', 'line', 'repeat', 'input', 'expectedOutput', 'metadata', 'output', 'toolCalls', 'evals', 'error', 'errorCode', 'latencyMs', 'usage', 'costUsd', 'judge', 'finishReason', 'cached', 'pregenerated', 'retries', 'timedOut', 'warmup', 'batch', 'hookErrors', 'agent', 'conversation', 'simulator'];
  const evalKeys = ['score', 'passed', 'label', 'reason', 'normalized', 'error', 'skipped'];
  for (const line of out.text.trimEnd().split('\n')) {
    const row = JSON.parse(line) as { evals: Record<string, object> };
    expect(Object.keys(row)).toEqual(keys);
    for (const result of Object.values(row.evals)) expect(Object.keys(result)).toEqual(evalKeys);
  }
});

test('jsonl with withPrompt: each line names its prompt first', async () => {
  const out = new MemoryStream();
  await play(createJsonlReporter(out, { withPrompt: true }), rows.slice(0, 1));
  expect(out.text).toBe(`{"prompt":${JSON.stringify(info.promptPath)},${FIRST_ROW.slice(1)}\n`);
});
