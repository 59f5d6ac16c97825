import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// gpt-4o-mini echoes each word; "loud" (not in any builtInModels list) shouts it.
let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer({
    handler: (r) => ({ text: r.model === 'loud' ? r.lastUserText.toUpperCase() : r.model === 'short' ? r.lastUserText.slice(0, 2) : r.lastUserText }),
  });
  project = await cliProject({
    'prompts/length.prompt.mdx': '---\nname: length\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [length]\n---\n\n<User>{props.word}</User>\n',
    'prompts/shout-variant.prompt.mdx': (await import('node:fs')).readFileSync(new URL('../fixtures/cli/echo/prompts/echo.prompt.mdx', import.meta.url), 'utf8').replace('name: echo', 'name: echo-loud').replace('model_name: openai/gpt-4o-mini', 'model_name: openai/loud'),
  });
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[]) => project.run(['run-experiment', '--no-cache', '--quiet', '--concurrency', '2', ...args], { server, env: { COLUMNS: '300' } });

describe('several models side by side', () => {
  it('one run per model over the same rows, one side-by-side summary, each compared with the first', async () => {
    const result = await run(['prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o-mini,openai/loud']);
    expect(result.code).toBe(1);
    const out = normalize(result.stdout);
    const models = new Set(server.requests.map((r) => r.body.model));
    expect(models).toEqual(new Set(['gpt-4o-mini', 'loud']));
    expect(await project.runIds()).toHaveLength(2);
    const side = out.slice(out.indexOf('SIDE BY SIDE'));
    expect(side).toMatch(/│ {19}│ openai\/gpt-4o-mini +│ openai\/loud +│/);
    expect(side).toContain('│ exact             │ 66.7% [9.4–99.2], mean 0.67 │ 33.3% [0.8–90.6], mean 0.33 │');
    expect(side).toContain('│ rows (errored)    │ 3 (0)                       │ 3 (0)                       │');
    expect(side).toContain('openai/loud vs openai/gpt-4o-mini (head − base; 3 paired rows, p-values Holm-adjusted across evals):');
    expect(side).toContain('│ exact (pass rate) │ 66.7% [9.4–99.2] │ 33.3% [0.8–90.6] │ −33.3 pts [−87.7, +58.5] │');
    // the side-by-side block, the results grid of the runs, then the one overall line of the several runs
    const lines = side.trimEnd().split('\n');
    const gridAt = lines.indexOf('GRID: openai/gpt-4o-mini (<run-id>) [base], openai/loud (<run-id>)');
    expect(lines.slice(gridAt - 3, gridAt)).toEqual([
      'Verdicts changed: 2 rows regressed, 1 improved.',
      'Regression check: ? inconclusive: exact: no significant drop, but not detectable with 3 pairs; about 2499 more paired rows needed to detect a 5-point drop (2502 in all)',
      '',
    ]);
    expect(lines.slice(gridAt + 1)).toEqual([
      '3 rows in all 2 runs',
      // (column widths follow the latencies, so the rules are matched, not spelled out)
      expect.stringMatching(/^┌───┬──────────────────┬─+┬─+┐$/),
      expect.stringMatching(/^│ # │ Input            │ openai\/gpt-4o-mini +│ openai\/loud +│$/),
      expect.stringMatching(/^├───┼──────────────────┼─+┼─+┤$/),
      expect.stringMatching(/^│ 0 │ \{"word":"alpha"\} │ alpha · exact PASS · \[\.\.\.\]ms · <\$0\.0001 +│ ALPHA · exact FAIL · \[\.\.\.\]ms +│$/),
      expect.stringMatching(/^│ 1 │ \{"word":"beta"\} /),
      expect.stringMatching(/^│ 2 │ \{"word":"gamma"\} │ gamma · exact FAIL /),
      expect.stringMatching(/^└───┴──────────────────┴─+┴─+┘$/),
      '',
      'Overall:  2 experiments, 6 rows (0 errored): 0 passed, 2 failed → FAILED (exit 1)',
    ]);
  });

  it('--model repeated works the same; json documents carry each comparison', async () => {
    const result = await run(['prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o-mini', '--model', 'openai/loud', '--format', 'json']);
    const documents = JSON.parse(result.stdout) as Array<{ run: { model: string }; comparison?: { changedRows: { regressed: number } } }>;
    expect(documents.map((d) => d.run.model)).toEqual(['openai/gpt-4o-mini', 'openai/loud']);
    expect(documents[0]?.comparison).toBeUndefined();
    expect(documents[1]?.comparison?.changedRows.regressed).toBe(2);
  });

  it('a model no provider serves is exit 2 before any call', async () => {
    const before = server.requests.length;
    const result = await run(['prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o-mini,acme/x1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: unknown provider "acme" in --model acme/x1 (known: openai)\n  hint: register the provider under `providers` in agentmark.config.ts\n');
    expect(server.requests.length).toBe(before);
    const watch = await project.run(['watch', 'prompts/echo.prompt.mdx', '--model', 'openai/gpt-4o-mini,openai/loud'], { server });
    expect(watch.code).toBe(2);
    expect(watch.stderr).toMatch(/^error: watch reruns one run per prompt: several --model is for run-experiment\n/);
  });
});

describe('prompt variants side by side', () => {
  it('--side-by-side compares each prompt with the first over their shared dataset', async () => {
    const result = await run(['prompts/echo.prompt.mdx', 'prompts/shout-variant.prompt.mdx', '--side-by-side']);
    const out = normalize(result.stdout);
    expect(out).toMatch(/│ {19}│ prompts\/echo\.prompt\.mdx +│ prompts\/shout-variant\.prompt\.mdx +│/);
    expect(out).toContain('prompts/shout-variant.prompt.mdx vs prompts/echo.prompt.mdx (head − base; 3 paired rows');
    expect((await run(['prompts/echo.prompt.mdx', '--side-by-side'])).stderr).toMatch(/^error: --side-by-side compares several prompts: give two or more/);
  });

  it('a score-only eval: its rows scored lower / higher / the same, in words that agree with the counts', async () => {
    // "short" answers with the word's first two letters: length 5, 4, 5 → 2, 2, 2.
    const result = await run(['prompts/length.prompt.mdx', '--model', 'openai/gpt-4o-mini,openai/short']);
    const out = normalize(result.stdout);
    expect(out).toContain('openai/short vs openai/gpt-4o-mini (head − base; 3 paired rows, p-values Holm-adjusted across evals):');
    expect(out).toContain('\nScores of length: lower on 3 rows, higher on 0, the same on 0.\nRegression check: ');
    expect(out).not.toContain('Verdicts changed');
    expect(out).not.toContain('Worse: ');
  });
});
