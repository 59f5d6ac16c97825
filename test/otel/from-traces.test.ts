import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { cliProject, type CliProject } from '../cli/cli-project.js';

const words = ['alpha', 'beta', 'gamma'];
const server = useOpenAIServer();
let project: CliProject;
let receiver: OtlpReceiver;

beforeEach(async () => {
  project = await cliProject();
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
  await project.cleanup();
});

/** A run exported as OTLP/JSON, written as the collector's file exporter does: one request per line. */
async function exportRun(): Promise<string> {
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--repeat', '2', '--quiet', '--format', 'json', '--otel', '--otel-content'], {
    server,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  });
  expect(result.stderr).toBe('');
  // gamma's expected output is GAMMA: its exact eval fails.
  expect(result.code).toBe(1);
  return receiver.jsonBodies.map((body) => JSON.stringify(JSON.parse(body))).join('\n') + '\n';
}

const rowsOf = async (path: string): Promise<Array<Record<string, unknown>>> =>
  (await project.read(path))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('agentmark dataset from-traces', () => {
  it("round trip: a run's exported trace gives back the dataset's inputs, once each, with the trace and span ids; a second import adds nothing", async () => {
    expect((await project.read('datasets/words.jsonl')).split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { input: unknown }).input)).toEqual(words.map((word) => ({ word })));
    await project.write('traces.jsonl', await exportRun());
    const imported = await project.run(['dataset', 'from-traces', 'traces.jsonl', '-o', 'datasets/from-traces.jsonl']);
    expect(imported.stderr).toBe('Wrote 3 rows to datasets/from-traces.jsonl from 1 traces file; 3 skipped (already in the file or repeated)\n');
    expect(imported.code).toBe(0);
    const rows = await rowsOf('datasets/from-traces.jsonl');
    expect(rows.map((row) => row.input).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(words.map((word) => ({ word })));
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['input', 'source']);
      expect(row.source).toEqual({ trace: expect.stringMatching(/^[0-9a-f]{32}$/), span: expect.stringMatching(/^[0-9a-f]{16}$/) });
    }
    const again = await project.run(['dataset', 'from-traces', 'traces.jsonl', '-o', 'datasets/from-traces.jsonl']);
    expect(again.stderr).toBe('Wrote 0 rows to datasets/from-traces.jsonl from 1 traces file; 6 skipped (already in the file or repeated)\n');
  });

  it('reads gzip, keeps the output as expected_output with --expected output, honours --limit and --span-name', async () => {
    await writeFile(join(project.dir, 'traces.jsonl.gz'), gzipSync(await exportRun()));
    const limited = await project.run(['dataset', 'from-traces', 'traces.jsonl.gz', '-o', 'one.jsonl', '--expected', 'output', '--limit', '1', '--span-name', 'agentmark.row']);
    expect(limited.code).toBe(0);
    const [row, ...rest] = await rowsOf('one.jsonl');
    expect(rest).toEqual([]);
    expect(row?.expected_output).toBe((row?.input as { word: string }).word);
    const none = await project.run(['dataset', 'from-traces', 'traces.jsonl.gz', '-o', 'none.jsonl', '--span-name', 'agentmark.run']);
    expect(none.stderr).toBe('Wrote 0 rows to none.jsonl from 1 traces file\n');
  });

  it('a file that is not OTLP/JSON is a usage error (exit 2)', async () => {
    await project.write('bad.json', 'not json at all');
    const result = await project.run(['dataset', 'from-traces', 'bad.json', '-o', 'x.jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not OTLP/JSON');
  });

  it('names the bad line of a JSONL traces file, refuses a line that is no document, and a cut gzip file, each exit 2 with a hint', async () => {
    await project.write('lines.jsonl', '{"resourceSpans":[]}\n\n{"resourceSpans": [\n');
    const badLine = await project.run(['dataset', 'from-traces', 'lines.jsonl', '-o', 'x.jsonl']);
    expect([badLine.code, badLine.stderr.split('\n')[0]]).toEqual([2, 'error: lines.jsonl:3:1: this line is not JSON, so the file is not OTLP/JSON']);
    await project.write('null.jsonl', '{"resourceSpans":[]}\nnull\n');
    const notDocument = await project.run(['dataset', 'from-traces', 'null.jsonl', '-o', 'x.jsonl']);
    expect([notDocument.code, notDocument.stderr.split('\n')[0]]).toEqual([2, 'error: null.jsonl:2:1: not an OTLP/JSON document (an object with resourceSpans)']);
    await writeFile(join(project.dir, 'cut.json.gz'), gzipSync(Buffer.from('{"resourceSpans":[]}'.repeat(50))).subarray(0, 20));
    const cut = await project.run(['dataset', 'from-traces', 'cut.json.gz', '-o', 'x.jsonl']);
    expect(cut.code).toBe(2);
    expect(cut.stderr).toMatch(/^error: cut\.json\.gz: not a whole gzip file \(Z_BUF_ERROR\)\n  hint: compress it again, or give it uncompressed\n$/);
  });

  it('an -o path whose folder is missing is a usage error naming it, before the traces are read', async () => {
    const result = await project.run(['dataset', 'from-traces', 'no-such-traces.json', '-o', 'missing/x.jsonl']);
    expect([result.code, result.stderr]).toEqual([2, 'error: -o missing/x.jsonl: cannot write this file (its folder does not exist)\n  hint: create missing first, or give a path in an existing folder\n']);
  });
});
