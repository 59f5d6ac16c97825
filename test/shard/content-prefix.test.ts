import { describe, expect, it } from 'vitest';
import { contentPrefixLength } from '../../src/shard/content-prefix.js';

/** What contentPrefixLength says of `line`: the prefix's text with the `}` that closes it, or undefined. */
function prefixOf(line: string): string | undefined {
  const bytes = Buffer.from(`xx${line}yy`, 'utf8');
  const length = contentPrefixLength(bytes, 2, bytes.length - 2);
  return length === undefined ? undefined : `${bytes.toString('utf8', 2, 2 + length)}}`;
}

/** The fields a row's shard is computed from, as the whole line's parse gives them. */
function content(text: string): unknown {
  const row = JSON.parse(text) as Record<string, unknown>;
  return { index: row.index, repeat: row.repeat, input: row.input, expectedOutput: row.expectedOutput, metadata: row.metadata };
}

const tail = { output: 'x', toolCalls: [], evals: { exact: { score: 1, passed: true } }, cached: false, retries: 0 };

describe('contentPrefixLength', () => {
  it('ends a runner-written line after its metadata, whatever the content holds', () => {
    const contents: Array<Record<string, unknown>> = [
      { input: { message: 'hi' }, expectedOutput: 'a', metadata: {} },
      // Keys named like the row's own, nested, and strings full of what the walk must skip.
      { input: { metadata: { input: 1 }, expectedOutput: '}', q: '","metadata":{' }, expectedOutput: { metadata: [1, '\\'] }, metadata: { tags: ['a"b', '\\"', '{['], n: null } },
      { input: 'a string \\" with escapes \n\u2028 é 😀', expectedOutput: null, metadata: { deep: [[[{ a: [] }]]] } },
      { input: [1, -2.5e-7, true, false, null], expectedOutput: 0, metadata: {} },
    ];
    for (const [k, fields] of contents.entries()) {
      const line = JSON.stringify({ index: k, line: k + 1, repeat: 0, ...fields, ...tail });
      const prefix = prefixOf(line);
      expect(prefix).toBe(JSON.stringify({ index: k, line: k + 1, repeat: 0, ...fields }));
      expect(content(prefix as string)).toEqual(content(line));
    }
  });

  it('takes a line without expectedOutput only once the rest of it has none', () => {
    const line = JSON.stringify({ index: 3, line: 4, repeat: 1, input: { a: 1 }, metadata: { b: 2 }, ...tail });
    expect(prefixOf(line)).toBe('{"index":3,"line":4,"repeat":1,"input":{"a":1},"metadata":{"b":2}}');
    const later = JSON.stringify({ index: 3, line: 4, repeat: 0, input: { a: 1 }, metadata: {}, output: 'x', expectedOutput: 'late' });
    expect(prefixOf(later)).toBeUndefined();
  });

  it('leaves to the whole parse a line not written the runner\'s way', () => {
    const lines = [
      // index or repeat after metadata (or missing): a prefix without them would skip the check.
      '{"repeat":0,"input":1,"expectedOutput":2,"metadata":{},"index":0}',
      '{"index":0,"input":1,"expectedOutput":2,"metadata":{},"repeat":0}',
      '{"index":0,"repeat":0,"input":1,"metadata":{},"index":1}',
      '{"index":0,"repeat":0, "input":1,"expectedOutput":2,"metadata":{}}',
      '{"index":0,"repeat":0,"in\\u0070ut":1,"expectedOutput":2,"metadata":{}}',
      '{"index":0,"repeat":0,"metadata":{},"input":1,"expectedOutput":2}',
      '{"index":0,"repeat":0,"input":1,"metadata":{}}\r',
      '{"index":0,"repeat":0,"input":"open,"metadata":{}',
      '{"index":0,"repeat":0,"input":1,"metadata":{"a":[}',
      '{"index":0,"repeat":0,"input":,"expectedOutput":2,"metadata":{}}',
      '[1,2]',
      '',
      '{',
    ];
    for (const line of lines) expect(prefixOf(line), line).toBeUndefined();
  });
});
