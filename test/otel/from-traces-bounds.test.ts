import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';

let project: CliProject;
beforeEach(async () => {
  project = await cliProject();
});
afterEach(() => project.cleanup());

const fromTraces = (file: string, extra: string[] = []) => project.run(['dataset', 'from-traces', file, '-o', 'rows.jsonl', ...extra], { timeoutMs: 300_000 });
const HINT = "  hint: give traces as the OTLP/JSON format (the collector's file exporter writes it), optionally gzipped\n";
const span = (fields: Record<string, unknown>) => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'chat', ...fields });
const document = (spans: unknown) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

describe('dataset from-traces reads a bounded amount', () => {
  it('a gzip bomb (1 MB on disk, 1.06 GiB inflated) stops at the default 1 GiB: exit 2, a typed error, no rows', async () => {
    // gzip members concatenated inflate to their texts concatenated: 17 × 64 MiB of newlines.
    const member = gzipSync(Buffer.alloc(64 * 1024 ** 2, '\n'));
    const bomb = Buffer.concat(Array.from({ length: 17 }, () => member));
    expect(bomb.length).toBeLessThan(2_000_000);
    await writeFile(join(project.dir, 'bomb.json.gz'), bomb);
    const result = await fromTraces('bomb.json.gz');
    expect([result.code, result.stderr]).toEqual([
      2,
      'error: bomb.json.gz: more than 1 GiB once decompressed (--max-bytes 1073741824)\n' +
        '  hint: split the traces into smaller files, or raise --max-bytes if the file is what you meant\n',
    ]);
    await expect(project.read('rows.jsonl')).rejects.toThrow(/ENOENT/);
  }, 300_000);

  it('--max-bytes sets the bound, for a document that would be held whole and for a plain file', async () => {
    const opened = gzipSync(Buffer.concat([Buffer.from('{"resourceSpans": ['), Buffer.alloc(32 * 1024 ** 2, ' ')]));
    await writeFile(join(project.dir, 'spaces.json.gz'), opened);
    const gz = await fromTraces('spaces.json.gz', ['--max-bytes', String(1024 ** 2)]);
    expect([gz.code, gz.stderr.split('\n')[0]]).toEqual([2, 'error: spaces.json.gz: more than 1 MiB once decompressed (--max-bytes 1048576)']);
    await project.write('plain.json', JSON.stringify(document([span({})])).padEnd(2000, ' '));
    const plain = await fromTraces('plain.json', ['--max-bytes', '1000']);
    expect([plain.code, plain.stderr.split('\n')[0]]).toEqual([2, 'error: plain.json: more than 1,000 bytes (--max-bytes 1000)']);
    expect((await fromTraces('plain.json')).code).toBe(0);
  });
});

describe('dataset from-traces: type-confused OTLP is USAGE_BAD_TRACES naming the JSON path', () => {
  const deepValue = (levels: number): unknown => (levels === 0 ? { stringValue: 'x' } : { arrayValue: { values: [deepValue(levels - 1)] } });
  const cases: Array<[string, unknown, string]> = [
    ['resourceSpans a number', { resourceSpans: 5 }, 'resourceSpans is a number, not a list'],
    ['a null resource', { resourceSpans: [null] }, 'resourceSpans[0] is null, not an object'],
    ['a null span', document([span({}), null]), 'resourceSpans[0].scopeSpans[0].spans[1] is null, not an object'],
    ['spans an object', document({ a: 1 }), 'resourceSpans[0].scopeSpans[0].spans is an object, not a list'],
    ['attributes an object', document([span({ attributes: { 'gen_ai.input.messages': '[]' } })]), 'resourceSpans[0].scopeSpans[0].spans[0].attributes is an object, not a list'],
    ['a null attribute', document([span({ attributes: [null] })]), 'resourceSpans[0].scopeSpans[0].spans[0].attributes[0] is null, not an object'],
    ['a key that is no string', document([span({ attributes: [{ key: 7, value: { stringValue: 'x' } }] })]), 'resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key is a number, not a string'],
    ['a name that is no string', document([span({ name: ['chat'] })]), 'resourceSpans[0].scopeSpans[0].spans[0].name is a list, not a string'],
    [
      'values nested 100 deep',
      document([span({ attributes: [{ key: 'deep', value: deepValue(100) }] })]),
      `resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value${'.arrayValue.values[0]'.repeat(64)} nests values deeper than 64 levels`,
    ],
  ];
  it.each(cases)('%s', async (_name, value, problem) => {
    await project.write('traces.json', `${JSON.stringify(value)}\n`);
    const result = await fromTraces('traces.json');
    expect([result.code, result.stderr]).toEqual([2, `error: traces.json:1:1: ${problem}, so the file is not OTLP/JSON\n${HINT}`]);
  });

  it('null where a list goes is an empty list (the protobuf JSON mapping), and a pretty-printed document with a byte order mark reads', async () => {
    const messages = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    const value = { resourceSpans: [{ scopeSpans: [{ spans: null }] }, { scopeSpans: [{ spans: [span({ attributes: [{ key: 'gen_ai.input.messages', value: { stringValue: messages } }] }), span({ attributes: null })] }] }] };
    await project.write('traces.json', `\uFEFF${JSON.stringify(value, null, 2)}`);
    const result = await fromTraces('traces.json');
    expect([result.code, result.stderr]).toEqual([0, 'Wrote 1 row to rows.jsonl from 1 traces file\n']);
  });

  it('an input attribute nested past a row\'s depth names the span', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    await project.write('traces.json', JSON.stringify(document([span({ attributes: [{ key: 'gen_ai.input.messages', value: { stringValue: deep } }] })])));
    const result = await fromTraces('traces.json');
    expect([result.code, result.stderr.split('\n')[0]]).toEqual([2, `error: traces.json: span ${'b'.repeat(16)}: its attribute gen_ai.input.messages nests deeper than 1000 levels`]);
  });
});

describe('dataset from-traces -o', () => {
  it('equal to a traces file it reads is refused, exit 2, and the file is left as it was', async () => {
    const text = `${JSON.stringify(document([span({})]))}\n`;
    await project.write('traces.jsonl', text);
    const result = await project.run(['dataset', 'from-traces', 'traces.jsonl', '-o', './traces.jsonl']);
    expect([result.code, result.stderr]).toEqual([2, 'error: -o ./traces.jsonl: this is the traces file traces.jsonl it reads\n  hint: write the rows to a dataset file of their own, e.g. datasets/from-traces.jsonl\n']);
    expect(await project.read('traces.jsonl')).toBe(text);
  });
});
