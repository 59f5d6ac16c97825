import { existsSync } from 'node:fs';
import { appendFile, cp, readFile, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { pleaseJudge, POLITE } from './please-judge.js';
import { cliProject, type CliProject } from './cli-project.js';

// Four rows; the judge (gpt-4o) passes a reply when it says "please".
const words = ['please sit', 'sit', 'please go', 'go'];
const prompt = `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [polite]\n---\n\n<User>{props.word}</User>\n`;

const server = useOpenAIServer({ handler: pleaseJudge });
let project: CliProject;
let runId: string;
const cli = (args: string[]) => project.run(args, { server });
const runDir = () => join(project.dir, '.agentmark', 'runs', runId);

beforeEach(async () => {
  project = await cliProject({
    'prompts/echo.prompt.mdx': prompt,
    'datasets/words.jsonl': words.map((word, i) => JSON.stringify({ name: `w${i}`, input: { word } })).join('\n'),
  });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores: { polite: POLITE } }));
  expect((await cli(['run-experiment', 'prompts/echo.prompt.mdx', '--judge-model', 'openai/gpt-4o', '-q', '-o', '/dev/null'])).code).toBe(1);
  [runId] = (await project.runIds()) as [string];
});
afterEach(() => project.cleanup());

describe('a torn last line of annotations.jsonl', () => {
  it('is cut before the next label, and agreement and dataset from-run --labelled read the file', async () => {
    expect((await cli(['annotate', 'latest', '0', 'polite', '--pass', '--reviewer', 'ann'])).code).toBe(0);
    // What a kill -9 (or ENOSPC) mid-append leaves: the start of a line, no newline.
    await appendFile(join(runDir(), 'annotations.jsonl'), '{"row":"5e1c","index":1,"repeat":0,"outp');
    expect((await cli(['annotate', 'latest', '1', 'polite', '--pass', '--reviewer', 'ann'])).code).toBe(0);
    const lines = (await readFile(join(runDir(), 'annotations.jsonl'), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { index: number }).index)).toEqual([0, 1]);

    const agreement = await cli(['agreement', 'latest']);
    expect([agreement.code, agreement.stderr]).toEqual([0, '']);
    expect(agreement.stdout).toMatch(/2 labelled rows, 2 labels given in this run\n/);
    const dataset = await cli(['dataset', 'from-run', 'latest', '--labelled', '-o', 'datasets/reviewed.jsonl']);
    expect([dataset.code, dataset.stderr]).toEqual([0, `Wrote 2 rows to datasets/reviewed.jsonl from run ${runId}\n`]);
  });

  it('a whole label short of only its newline is completed, not dropped', async () => {
    expect((await cli(['annotate', 'latest', '0', 'polite', '--pass', '--reviewer', 'ann'])).code).toBe(0);
    const path = join(runDir(), 'annotations.jsonl');
    const text = await readFile(path, 'utf8');
    await appendFile(path, text.slice(0, -1).replace('"index":0', '"index":2').replace(/"row":"[^"]*"/, '"row":"x"'));
    expect((await cli(['annotate', 'latest', '1', 'polite', '--pass', '--reviewer', 'ann'])).code).toBe(0);
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { index: number }).index)).toEqual([0, 2, 1]);
  });
});

describe('dataset from-run -o', () => {
  it('into the run store (the run\'s own results, another run, a link to them) is refused, exit 2, and the run stays readable', async () => {
    const results = `.agentmark/runs/${runId}/results.jsonl`;
    const before = await project.read(results);
    await symlink(join(project.dir, results), join(project.dir, 'linked.jsonl'));
    const refusal = (given: string) =>
      `error: -o ${given}: this file is inside the run store (.agentmark/), which agentmark writes and reads runs from\n` +
      '  hint: write the dataset where datasets go, e.g. datasets/from-run.jsonl\n';
    for (const given of [results, `.agentmark/runs/${runId}/annotations.jsonl`, '.agentmark/rows.jsonl', 'linked.jsonl']) {
      const refused = await cli(['dataset', 'from-run', 'latest', '-o', given]);
      expect([refused.code, refused.stderr], given).toEqual([2, refusal(given)]);
    }
    expect(await project.read(results)).toBe(before);
    expect(existsSync(join(project.dir, '.agentmark', 'rows.jsonl'))).toBe(false);
    const show = await cli(['runs', 'show', 'latest', '--format', 'json']);
    expect([show.code, show.stderr]).toEqual([1, '']);
  });

  it('a run given as a folder outside .agentmark (a CI artifact): its own files are refused too', async () => {
    await cp(runDir(), join(project.dir, 'artifact'), { recursive: true });
    const refused = await cli(['dataset', 'from-run', 'artifact', '-o', 'artifact/results.jsonl']);
    expect([refused.code, refused.stderr]).toEqual([2, 'error: -o artifact/results.jsonl: this file is inside the run folder it reads\n  hint: write the dataset where datasets go, e.g. datasets/from-run.jsonl\n']);
    expect((await cli(['dataset', 'from-run', 'artifact', '-o', 'datasets/kept.jsonl'])).code).toBe(0);
  });

  it('onto a full disk (/dev/full) is STORE_WRITE_FAILED, exit 2, no stack', async () => {
    const full = await cli(['dataset', 'from-run', 'latest', '-o', '/dev/full']);
    expect([full.code, full.stderr]).toEqual([
      2,
      `error: ${relative(project.dir, '/dev/full')}: cannot write full: no space left on the device (ENOSPC)\n  hint: free some space, then run again\n`,
    ]);
  });
});

describe('annotate --import', () => {
  it('accepts a file with a UTF-8 byte order mark and CRLF lines, as datasets are', async () => {
    const lines = [0, 1].map((row) => JSON.stringify({ row, eval: 'polite', value: row === 0, reviewer: 'ann' }));
    await project.write('labels.jsonl', `\uFEFF${lines.join('\r\n')}\r\n`);
    const result = await cli(['annotate', 'latest', '--import', 'labels.jsonl']);
    expect([result.code, result.stderr]).toEqual([0, `Labelled 2 eval results in run ${runId} (.agentmark/runs/${runId}/annotations.jsonl)\n`]);
    const written = (await readFile(join(runDir(), 'annotations.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { index: number; value: boolean });
    expect(written.map((line) => [line.index, line.value])).toEqual([[0, true], [1, false]]);
  });
});
