import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/temp-project.js';

const server = useOpenAIServer();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-pf-'));
  await cp(join(FIXTURES, 'import', 'promptfoo'), join(dir, 'src'), { recursive: true });
  await cp(join(FIXTURES, 'import', 'promptfoo-judges'), join(dir, 'judges-src'), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const cli = (args: string[], cwd = dir) => runCli(args, { cwd, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' }, timeoutMs: 90_000 });
const read = (path: string) => readFile(join(dir, path), 'utf8');
const rowsOf = async (path: string) => (await read(path)).trim().split('\n').map((line) => JSON.parse(line) as { input: Record<string, unknown>; evals?: unknown[]; threshold?: number });

/** A value of the schema's shape: strings, the first enum value, numbers at their minimum, lists of minItems (at least one). */
function answerFor(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  switch (schema['type']) {
    case 'object':
      return Object.fromEntries(Object.entries((schema['properties'] ?? {}) as Record<string, Record<string, unknown>>).map(([k, v]) => [k, answerFor(v)]));
    case 'array':
      return Array.from({ length: Math.max(1, Number(schema['minItems'] ?? 1)) }, () => answerFor((schema['items'] ?? {}) as Record<string, unknown>));
    case 'number':
    case 'integer':
      return Number(schema['minimum'] ?? 0);
    case 'boolean':
      return true;
    default:
      return 'The Eiffel Tower is in Paris.';
  }
}

type JsonlRow = { model?: string; evals: Record<string, { error?: string | null }> };

describe('agentmark import promptfoo', () => {
  it('writes prompts, a dataset with row evals, scores and config scorers, naming what it left out', async () => {
    const imported = await cli(['import', 'promptfoo', 'src/promptfooconfig.yaml', '-o', 'out']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('Not imported (2):\n  src/promptfooconfig.yaml:76: assertion python: python assertions are not run');
    expect(imported.stdout).toContain('  src/promptfooconfig.yaml:78: assertion perplexity: unknown assertion type "perplexity"');
    expect(await read('out/IMPORT.md')).toContain('  ```\n  {\n    "type": "python",\n    "value": "len(output) > 3"\n  }\n  ```');

    // Nunjucks: a var, an if (truthy, hence !!), a for with loop.index and a filter; file:// vars inlined.
    expect(await read('out/prompts/answer.prompt.mdx')).toContain(
      '<User>\nYou are a {props.tone} travel guide.\n<If condition={!!(props.facts)}>Facts: {props.facts}</If>\n' +
        '<ForEach arr={props.tags}>{(tag, index) => (<>- {(index + 1)}. {upper(tag)}\n</>)}</ForEach>\nTell me about {props.city}.\n</User>',
    );
    const chat = await read('out/prompts/chat.prompt.mdx');
    expect(chat).toContain('<System>\nYou are a {props.tone} travel guide.\n</System>\n\n<User>\nTell me about {props.city} in one sentence.\n</User>');
    // Two providers: the first is the model, both the models list; the second's settings are noted.
    expect(chat).toContain('text_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0\n');
    expect(chat).toContain('  evals:\n    - not_regex\n    - word_count\n    - javascript_1\n  models:\n    - openai/gpt-4o-mini\n    - openai/gpt-4o\n');

    const rows = await rowsOf('out/datasets/tests.jsonl');
    expect(rows.map((r) => r.input)).toEqual([
      { tone: 'friendly', city: 'Paris', facts: 'Paris is the capital of France.\n', tags: ['museums', 'food'] },
      { tone: 'friendly', city: 'Rome' },
      { tone: 'friendly', city: 'Oslo' },
      { tone: 'friendly', city: 'Lima' },
    ]);
    expect(rows[0]?.threshold).toBe(0.5);
    // The templated defaultTest `contains {{city}}` is filled per row; the test's asserts follow.
    expect(rows[0]?.evals?.slice(0, 3)).toEqual([
      { name: 'contains', options: { value: 'Paris' } },
      { name: 'icontains', options: { value: 'paris' }, weight: 2 },
      { name: 'contains_any', options: { values: ['Louvre', 'Eiffel'] } },
    ]);
    expect(rows.slice(1).map((r) => r.evals)).toEqual([
      [{ name: 'contains', options: { value: 'Rome' } }, { name: 'contains_2', options: { value: 'Rome' } }, { name: 'icontains', options: { value: 'rome' } }],
      [{ name: 'contains', options: { value: 'Oslo' } }, 'javascript_3', { name: 'one_of', options: { values: ['Oslo'], trim: false } }],
      [{ name: 'contains', options: { value: 'Lima' } }, { name: 'starts_with', options: { value: 'Lima', trim: false } }, { name: 'llm_judge', options: { criteria: 'is about Peru' } }],
    ]);
    const scores = (JSON.parse(await read('out/agentmark.json')) as { scores: Record<string, { scorer?: string; options?: unknown }> }).scores;
    expect(scores['not_regex']).toEqual({ type: 'boolean', scorer: 'not_regex', options: { pattern: '(?i)as an ai' } });
    expect(scores['not_regex_2']).toEqual({ type: 'boolean', scorer: 'not_regex' });
    expect(scores['rouge_n']).toEqual({ type: 'numeric', min: 0, max: 1, scorer: 'rouge_n' });
    expect(Object.keys(scores).filter((name) => scores[name]?.scorer === undefined)).toEqual(['javascript_1', 'levenshtein_distance', 'javascript_2', 'contains_json', 'javascript_3']);
  });

  it('the imported project validates and runs every prompt × model with every row scored', async () => {
    await cli(['import', 'promptfoo', 'src/promptfooconfig.yaml', '-o', 'out']);
    const out = join(dir, 'out');
    const validated = await cli(['validate'], out);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
    for (const prompt of ['prompts/answer.prompt.mdx', 'prompts/chat.prompt.mdx']) {
      const run = await cli(['run-experiment', prompt, '--format', 'jsonl', '--quiet'], out);
      const rows = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as JsonlRow);
      expect(rows).toHaveLength(8);
      const errors = rows.flatMap((row) => Object.entries(row.evals).filter(([, r]) => r.error != null).map(([name, r]) => `${name}: ${String(r.error)}`));
      expect(errors).toEqual([]);
      // A CSV row: the prompt's 3 evals and 3 row evals (defaultTest's filled contains, its 2 __expected).
      // Paris: the 3, the filled contains, 21 of its own (all but python and perplexity), and row_score (it has a threshold).
      expect(rows.map((row) => Object.keys(row.evals).length).sort((a, b) => a - b)).toEqual([6, 6, 6, 6, 6, 6, 26, 26]);
    }
  }, 180_000);

  it('maps the judge, embedding and tool-call assertions to their scorers', async () => {
    const imported = await cli(['import', 'promptfoo', 'judges-src/promptfooconfig.yaml', '-o', 'out']);
    // The provider's tools are not offered to the prompt (they need code): named, and their schemas kept for the check.
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('Not imported (1):\n  judges-src/promptfooconfig.yaml:6: provider openai:gpt-4o-mini config.tools: the prompt is not offered these tools');
    const [row] = await rowsOf('out/datasets/tests.jsonl');
    expect(row?.evals).toEqual([
      { name: 'similar', options: { value: 'The Eiffel Tower is in Paris.', threshold: 0.8 } },
      'factuality',
      { name: 'closed_qa', options: { criteria: 'Names a city' } },
      { name: 'answer_relevance', options: { threshold: 0.7 } },
      'context_faithfulness',
      'context_recall',
      'context_relevance',
      { name: 'g_eval', options: { criteria: 'The answer is concise and correct', threshold: 0.6 } },
      { name: 'is_valid_tools_call', options: { tools: { get_weather: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } },
      { name: 'llm_judge', options: { criteria: 'Is polite', model: 'openai/gpt-4o' } },
    ]);
    expect(await read('out/prompts/prompt-1.prompt.mdx')).toContain('text_config:\n  model_name: openai/gpt-4o-mini\n  temperature: 0.2\n  max_tokens: 200\n');
    // factuality and context-recall read the reference from the row's expected output.
    expect((await rowsOf('out/datasets/tests.jsonl'))[0]).toMatchObject({ expected_output: 'The Eiffel Tower is in Paris.' });

    // Every judge answers in its own schema's shape (lists as long as they must be), so every eval is scored.
    server.setHandler((request) => (request.schema === undefined ? { text: 'The Eiffel Tower is in Paris.' } : { object: answerFor(request.schema) }));
    const out = join(dir, 'out');
    const validated = await cli(['validate'], out);
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
    const run = await cli(['run-experiment', 'prompts/prompt-1.prompt.mdx', '--format', 'jsonl', '--quiet'], out);
    const [result] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as JsonlRow);
    expect(Object.keys(result?.evals ?? {}).sort()).toEqual(['answer_relevance', 'closed_qa', 'context_faithfulness', 'context_recall', 'context_relevance', 'factuality', 'g_eval', 'is_valid_tools_call', 'llm_judge', 'similar']);
    expect(Object.entries(result?.evals ?? {}).filter(([, r]) => r.error != null)).toEqual([]);
  }, 180_000);

  it('exits 2 naming the line of a config that is not YAML, and 1 naming an unmappable provider', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'prompts:\n  - "hi {{name}}"\nproviders: [openai:gpt-4o\n');
    const bad = await cli(['import', 'promptfoo', 'bad.yaml', '-o', 'out']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: bad\.yaml:\d+: config: not YAML\/JSON: /);
    await writeFile(join(dir, 'ollama.yaml'), 'prompts:\n  - "hi {{name}}"\nproviders:\n  - ollama:chat:llama3\ntests:\n  - vars: { name: Ada }\n');
    const ollama = await cli(['import', 'promptfoo', 'ollama.yaml', '-o', 'out']);
    expect(ollama.code).toBe(1);
    expect(ollama.stdout).toContain('  ollama.yaml:4: provider ollama:chat:llama3: no counterpart');
    const missing = await cli(['import', 'promptfoo', '-o', 'out2']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: promptfooconfig.yaml: config: file not found\n');
  });
});
