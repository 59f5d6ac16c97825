import { expect, test } from 'vitest';
import { createJsonReporter, createJsonlReporter } from '../../src/report/index.js';
import { MemoryStream, inOrder, info, play, rows, summary } from './fixtures.js';

test('json: one document with run info, summary and every row field, rows sorted', async () => {
  const out = new MemoryStream();
  await play(createJsonReporter(out));
  const sorted = [rows[3], rows[1], rows[0], rows[2]];
  expect(out.text).toBe(`${JSON.stringify({ run: info, summary, rows: sorted }, null, 2)}\n`);
  const parsed = JSON.parse(out.text) as { rows: Array<{ index: number; repeat: number; cached: boolean }> };
  expect(parsed.rows.map((row) => `${row.index}.${row.repeat}`)).toEqual(['0.0', '0.1', '1.0', '1.1']);
  expect(parsed.rows[2]).toEqual(rows[0]);
});

test('json: a run without rows is the same document with an empty list', async () => {
  const out = new MemoryStream();
  await play(createJsonReporter(out), []);
  expect(out.text).toBe(`${JSON.stringify({ run: info, summary, rows: [] }, null, 2)}\n`);
});

test('jsonl: one line per row, written as each row ends', async () => {
  const out = new MemoryStream();
  const reporter = createJsonlReporter(out);
  await reporter.onRunStart?.(info);
  await reporter.onRowEnd?.(rows[0]!);
  // Streaming: the first row is out before the second finishes.
  expect(out.text).toBe(`${JSON.stringify(rows[0])}\n`);
  await reporter.onRowEnd?.(rows[1]!);
  await reporter.onRunEnd?.(summary, info, inOrder(rows.slice(0, 2)));
  expect(out.text).toBe(`${JSON.stringify(rows[0])}\n${JSON.stringify(rows[1])}\n`);
  expect(out.text.split('\n')[0]).toBe(
    '{"line":2,"metadata":{},"toolCalls":[],"retries":0,"index":1,"repeat":0,"input":{"q":"say \\"hi\\", then\\nwave"},' +
      '"output":"hi, <wave> & \\"bye\\"","evals":{"exact":{"score":1,"passed":true},' +
      '"tone":{"score":0.9,"label":"friendly","reason":"warm"}},"latencyMs":50,"cached":true}',
  );
});

test('jsonl with withPrompt: each line names its prompt first', async () => {
  const out = new MemoryStream();
  await play(createJsonlReporter(out, { withPrompt: true }), rows.slice(0, 1));
  expect(out.text).toBe(`${JSON.stringify({ prompt: info.promptPath, ...rows[0] })}\n`);
});
