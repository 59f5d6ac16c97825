import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors/index.js';
import { countRows, MAX_ROW_DEPTH, readDataset, readDatasetBatches, type DatasetRow, type ReadDatasetOptions } from '../../src/dataset/index.js';
import { makeTempDir } from '../project/temp-dir.js';

const fixtures = fileURLToPath(new URL('../fixtures/datasets', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function datasetFile(contents: string | Uint8Array): Promise<string> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  return temp.write('data.jsonl', contents);
}

async function collect(file: string, options?: ReadDatasetOptions): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  for await (const row of readDataset(file, options)) rows.push(row);
  return rows;
}

async function failure(file: string, options?: ReadDatasetOptions): Promise<DatasetError> {
  const error = await collect(file, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatasetError);
  return error as DatasetError;
}

describe('readDataset', () => {
  it('yields rows with index, line number, expected output, output and metadata', async () => {
    const rows = await collect(path.join(fixtures, 'valid.jsonl'));
    expect(rows).toEqual([
      {
        index: 0,
        line: 1,
        input: { name: 'Ada' },
        expectedOutput: 'Hello, Ada!',
        hasExpectedOutput: true,
        metadata: { tag: 'short' },
        hasOutput: false,
      },
      { index: 1, line: 3, input: { name: 'Grace' }, expectedOutput: null, hasExpectedOutput: true, metadata: {}, hasOutput: false },
      {
        index: 2,
        line: 4,
        input: { name: 'Linus' },
        hasExpectedOutput: false,
        metadata: { difficulty: 3 },
        output: 'Hi Linus',
        hasOutput: true,
      },
    ]);
    expect(await countRows(path.join(fixtures, 'valid.jsonl'))).toBe(3);
  });

  it('skips blank and whitespace-only lines, tolerates CRLF, a BOM and no final newline', async () => {
    const file = await datasetFile('\uFEFF{"input":{"a":1}}\r\n\r\n   \t\r\n{"input":{"a":2},"expected_output":"x"}\r\n{"input":{"a":3}}');
    const rows = await collect(file);
    expect(rows.map((row) => [row.index, row.line, row.input['a']])).toEqual([
      [0, 1, 1],
      [1, 4, 2],
      [2, 5, 3],
    ]);
    expect(rows[1]?.expectedOutput).toBe('x');
  });

  it('names file, line and column for a line that is not JSON', async () => {
    const file = await datasetFile('{"input":{}}\n{"input": {"a": 1,}}\n');
    const error = await failure(file);
    expect(error.code).toBe('DATASET_INVALID_JSON');
    expect(error.location).toEqual({ file, line: 2, column: 19 });
    expect(error.format().split('\n')[0]).toBe(`${file}:2:19: not valid JSON: trailing comma before '}'`);
  });

  it.each([
    ['[1, 2]', 'DATASET_ROW_NOT_OBJECT', 'row must be a JSON object (got an array)'],
    ['"text"', 'DATASET_ROW_NOT_OBJECT', 'row must be a JSON object (got string "text")'],
    ['{"expected_output": "x"}', 'DATASET_MISSING_INPUT', 'row has no "input"'],
    ['{"input": "Ada"}', 'DATASET_INPUT_NOT_OBJECT', '"input" must be an object of props (got string "Ada")'],
    ['{"input": [1]}', 'DATASET_INPUT_NOT_OBJECT', '"input" must be an object of props (got an array)'],
    ['{"input": null}', 'DATASET_INPUT_NOT_OBJECT', '"input" must be an object of props (got null)'],
  ])('rejects %s', async (line, code, message) => {
    const file = await datasetFile(`{"input":{}}\n\n${line}\n`);
    const error = await failure(file);
    expect({ code: error.code, message: error.message, location: error.location }).toEqual({ code, message, location: { file, line: 3 } });
  });

  it('lists every input_schema violation with its path', async () => {
    const inputSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name', 'age'],
    };
    const file = await datasetFile('{"input":{"name":"Ada","age":36}}\n{"input":{"name":7,"age":-1}}\n{"input":{}}\n');
    const errors: DatasetError[] = [];
    const rows = await collect(file, { inputSchema, onError: (error) => errors.push(error) });
    expect(rows.map((row) => row.line)).toEqual([1]);
    expect(errors.map((error) => `${error.location?.line} ${error.code} ${error.message}`)).toEqual([
      "2 DATASET_INPUT_SCHEMA input does not match the prompt's input_schema: input/name must be string (got integer); input/age must be >= 0",
      '3 DATASET_INPUT_SCHEMA input does not match the prompt\'s input_schema: input must have required property "name"; input must have required property "age"',
    ]);
  });

  it('reports an invalid input_schema itself', async () => {
    const file = await datasetFile('{"input":{}}\n');
    const error = await failure(file, { inputSchema: { type: 'no-such-type' } });
    expect(error.code).toBe('DATASET_INPUT_SCHEMA_INVALID');
  });

  it('collects every bad line with onError and keeps reading', async () => {
    const errors: DatasetError[] = [];
    const file = path.join(fixtures, 'several-errors.jsonl');
    const rows = await collect(file, { onError: (error) => errors.push(error) });
    expect(rows.map((row) => [row.index, row.line])).toEqual([
      [0, 1],
      [5, 6],
    ]);
    expect(errors.map((error) => `${error.location?.line}:${error.location?.column ?? '-'} ${error.code}`)).toEqual([
      '2:1 DATASET_INVALID_JSON',
      '3:- DATASET_INPUT_NOT_OBJECT',
      '4:- DATASET_ROW_NOT_OBJECT',
      '5:- DATASET_MISSING_INPUT',
    ]);
  });

  it('throws on the first bad line without onError', async () => {
    const error = await failure(path.join(fixtures, 'several-errors.jsonl'));
    expect(error.location?.line).toBe(2);
  });

  it.each(['empty.jsonl', 'blank-only.jsonl'])('rejects %s as having no rows', async (name) => {
    const file = path.join(fixtures, name);
    const error = await failure(file);
    expect({ code: error.code, message: error.message, location: error.location }).toEqual({
      code: 'DATASET_EMPTY',
      message: 'dataset has no rows',
      location: { file },
    });
  });

  it('reports a missing file as DATASET_NOT_FOUND', async () => {
    const file = path.join(fixtures, 'missing.jsonl');
    const error = await failure(file);
    expect(error.code).toBe('DATASET_NOT_FOUND');
    expect(error.message).toBe(`dataset file not found: ${file}`);
  });

  it('names the line holding invalid UTF-8', async () => {
    const bad = Buffer.concat([Buffer.from('{"input":{"a":"ok"}}\n{"input":{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]);
    const file = await datasetFile(bad);
    const error = await failure(file);
    expect({ code: error.code, message: error.message, line: error.location?.line }).toEqual({
      code: 'DATASET_INVALID_UTF8',
      message: 'line is not valid UTF-8',
      line: 2,
    });
  });

  it('keeps multi-byte characters split across chunk boundaries intact', async () => {
    const name = 'é'.repeat(300_000); // 600 KB of two-byte characters: crosses several chunks
    const file = await datasetFile(`${JSON.stringify({ input: { name } })}\n`);
    const rows = await collect(file);
    expect(rows[0]?.input['name']).toBe(name);
  });

  it('reads a single 10 MB line', async () => {
    const text = 'x'.repeat(10 * 1024 * 1024);
    const file = await datasetFile(`{"input":{"a":1}}\n${JSON.stringify({ input: { text }, expected_output: 'y' })}\n{"input":{"a":2}}\n`);
    const rows = await collect(file);
    expect(rows.map((row) => row.line)).toEqual([1, 2, 3]);
    expect((rows[1]?.input['text'] as string).length).toBe(text.length);
  });

  it('rejects JSON nested too deeply to process safely', async () => {
    const depth = 100_000;
    const file = await datasetFile(`{"input":{}}\n{"input":${'['.repeat(depth)}${']'.repeat(depth)}}\n`);
    const error = await failure(file);
    expect({ code: error.code, message: error.message, line: error.location?.line }).toEqual({
      code: 'DATASET_TOO_DEEP',
      message: `JSON is nested deeper than ${MAX_ROW_DEPTH} levels`,
      line: 2,
    });
  });

  it('accepts nesting up to the limit', async () => {
    const depth = MAX_ROW_DEPTH - 2;
    const file = await datasetFile(`{"input":{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}}\n`);
    expect((await collect(file)).length).toBe(1);
  });

  it('stops when the signal aborts', async () => {
    const file = path.join(fixtures, 'valid.jsonl');
    const controller = new AbortController();
    controller.abort();
    await expect(collect(file, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});

describe('readDatasetBatches', () => {
  it('gives the rows readDataset gives, a chunk at a time, across chunk boundaries', async () => {
    // 20,000 lines of 28–32 bytes (and a newline): 648,890 bytes, so three 256 KiB chunks and lines cut between them.
    const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ input: { q: `question ${i}` } }));
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBe(648_890);
    const file = await datasetFile(text);
    const batches: DatasetRow[][] = [];
    for await (const batch of readDatasetBatches(file)) batches.push(batch);
    expect(batches.length).toBe(3);
    expect(batches.flat()).toEqual(await collect(file));
    expect(batches.flat().map((row) => row.index)).toEqual(lines.map((_, i) => i));
  });

  it('hands over the rows before a bad line, then throws it', async () => {
    const file = await datasetFile('{"input":{"a":1}}\n{"input":{"a":2}}\nnot json\n{"input":{"a":4}}\n');
    const seen: number[] = [];
    const error = await (async () => {
      for await (const batch of readDatasetBatches(file)) seen.push(...batch.map((row) => row.line));
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1, 2]);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).location?.line).toBe(3);
  });
});
