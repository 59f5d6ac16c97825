import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAIRequestInfo, type OpenAIReply } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/temp-project.js';

const CAPITALS: Record<string, string> = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi', Peru: 'Lima', Canada: 'Ottawa' };

/** The model answers the capital of the country asked about; a judge answers what its schema asks for. */
function answer(request: OpenAIRequestInfo): OpenAIReply {
  if (request.schema !== undefined) {
    const properties = (request.schema['properties'] ?? {}) as Record<string, unknown>;
    if ('label' in properties) return { object: { reasoning: 'it names the capital', label: 'correct' } };
    return { object: { reasoning: 'sure', score: 4 } };
  }
  const country = Object.keys(CAPITALS).find((c) => request.lastUserText.includes(c));
  return { text: country === undefined ? 'unknown' : (CAPITALS[country] ?? '') };
}

const server = useOpenAIServer({ handler: answer });
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-oe-'));
  await cp(join(FIXTURES, 'import', 'openai-evals'), join(dir, 'src'), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = (args: string[], cwd = dir) => runCli(args, { cwd, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' }, timeoutMs: 60_000 });

describe('agentmark import openai-evals', () => {
  it('imports every grader type but python, validates, and runs with every row scored', async () => {
    const imported = await cli(['import', 'openai-evals', 'src/eval.json', '--run', 'src/run.json', '-o', 'out']);
    expect(imported.stderr).toBe('');
    // The python grader is kept in the report, not run: something was left out.
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('Not imported (1):\n  src/eval.json:58: python "length check": python graders are not run');
    const report = await readFile(join(dir, 'out', 'IMPORT.md'), 'utf8');
    expect(report).toContain("    return 1.0 if len(sample['output_text']) < 40 else 0.0");
    const project = JSON.parse(await readFile(join(dir, 'out', 'agentmark.json'), 'utf8')) as { scores: Record<string, { scorer?: string; options?: unknown }> };
    expect(Object.fromEntries(Object.entries(project.scores).map(([name, s]) => [name, s.scorer ?? 'config']))).toEqual({
      exact: 'exact_match',
      not_the_country: 'config',
      mentions_capital: 'contains',
      mentions_capital_any_case: 'icontains',
      says_city: 'icontains',
      fuzzy: 'config',
      bleu: 'bleu',
      gleu: 'gleu',
      meteor: 'meteor',
      rouge_1: 'rouge_n',
      rouge_2: 'rouge_n',
      rouge_l: 'rouge_l',
      cosine: 'similar',
      correctness: 'llm_judge',
      confidence: 'llm_judge',
      blend: 'config',
    });
    expect(project.scores['says_city']?.options).toEqual({ value: 'city' });
    expect(project.scores['rouge_2']?.options).toEqual({ n: 2, threshold: 0.5 });

    const out = join(dir, 'out');
    const validated = await cli(['validate'], out);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
    const run = await cli(['run-experiment', 'prompts/capital-cities.prompt.mdx', '--format', 'jsonl', '--quiet'], out);
    // jsonl lines come as rows finish (each waits for its judges and embeddings): dataset order by index.
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { index: number; output: string; evals: Record<string, { passed?: boolean; score?: number; error?: string | null; label?: string }> })
      .sort((a, b) => a.index - b.index);
    expect(rows.map((r) => r.output)).toEqual(['Paris', 'Tokyo', 'Nairobi']);
    for (const row of rows) {
      expect(Object.keys(row.evals).sort()).toEqual(Object.keys(project.scores).sort());
      expect(Object.entries(row.evals).filter(([, r]) => r.error != null)).toEqual([]);
      expect(row.evals['exact']?.passed).toBe(true);
      expect(row.evals['not_the_country']?.passed).toBe(true);
      expect(row.evals['says_city']?.passed).toBe(false);
      expect(row.evals['correctness']).toMatchObject({ label: 'correct', passed: true });
      expect(row.evals['confidence']).toMatchObject({ score: 4, passed: true });
      expect(row.evals['blend']?.score).toBe(1);
      // The answer is the reference: a cosine of 1 on the loopback server's embeddings.
      expect(row.evals['cosine']).toMatchObject({ score: 1, passed: true });
    }
    // The judge was given the grader's own messages, with the item's fields and the answer filled in.
    const judged = server.requests.find((r) => JSON.stringify(r.body).includes('You grade answers about capital cities.'));
    expect(JSON.stringify(judged?.body)).toContain('Country: France\\nExpected: Paris\\nAnswer: Paris\\nIs the answer correct?');
    // 'says city' fails every row: exit 1 is the gate, not an error.
    expect(run.code).toBe(1);
  }, 180_000);

  it('takes items from --items, keeps a sample as the row output, and names a missing file', async () => {
    const imported = await cli(['import', 'openai-evals', 'src/eval.json', '--items', 'src/items.jsonl', '--run', 'src/missing.json', '-o', 'out']);
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('  src/missing.json: run: file not found');
    const rows = (await readFile(join(dir, 'out', 'datasets', 'capital-cities.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(rows).toEqual([
      { input: { country: 'Peru', capital: 'Lima', continent: 'South America' }, expected_output: 'Lima' },
      { input: { country: 'Canada', capital: 'Ottawa', continent: 'North America' }, expected_output: 'Ottawa', output: 'Ottawa' },
    ]);
    const prompt = await readFile(join(dir, 'out', 'prompts', 'capital-cities.prompt.mdx'), 'utf8');
    expect(prompt).toContain('<User>\ncountry: {props.country}\ncapital: {props.capital}\ncontinent: {props.continent}\n</User>');
  });

  it('refuses to overwrite without --force, and exits 2 on a file that is not JSON', async () => {
    await writeFile(join(dir, 'agentmark.json'), '{}');
    const refused = await cli(['import', 'openai-evals', 'src/eval.json', '--run', 'src/run.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not overwriting what is already there: agentmark.json');
    await writeFile(join(dir, 'bad.json'), '{\n  "name": "x",\n  "testing_criteria": [\n}\n');
    const bad = await cli(['import', 'openai-evals', 'bad.json', '-o', 'out2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: bad\.json:4: eval definition: not JSON: /);
  });
});
