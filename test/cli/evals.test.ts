import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const config = `export default {
  scorers: {
    slow: () => new Promise(() => {}),
    length: ({ output }: { output: unknown }) => ({ score: Math.min(10, String(output).length) }),
  },
};
`;
const scores = {
  exact: { type: 'boolean', scorer: 'exact_match' },
  slow: { type: 'boolean' },
  polite: { type: 'boolean', scorer: 'llm_judge', description: 'Is the reply polite?' },
};
const prompt = (evals: string[]): string =>
  `---\nname: echo\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [${evals.join(', ')}]\n---\n\n<User>{props.word}</User>\n`;

const server = useOpenAIServer();
let project: CliProject;
afterEach(() => project.cleanup());

async function setUp(evals: string[]): Promise<void> {
  project = await cliProject({ 'agentmark.config.ts': config, 'prompts/echo.prompt.mdx': prompt(evals) });
  const json = JSON.parse(await project.read('agentmark.json')) as Record<string, unknown>;
  await project.write('agentmark.json', JSON.stringify({ ...json, scores }));
}

const run = (args: string[]) => project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--quiet', ...args], { server });

describe('evals through run-experiment', () => {
  it('an eval name with no scorer is an input error before any model call, naming the closest match', async () => {
    await setUp(['exact', 'exactt']);
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: prompts\/echo\.prompt\.mdx:7:18: eval "exactt" has no scorer; available: .*\bexact\b.*\n {2}hint: did you mean "exact"\?\n$/);
    expect(server.requests).toHaveLength(0);
    expect(await project.runIds()).toEqual([]);
  });

  it('--eval-timeout ends a hanging scorer: that eval errors, the others and the run go on', async () => {
    await setUp(['exact', 'slow']);
    // A scorer that never settles: without the timeout the run would not end at all.
    const result = await run(['--rows', '0', '--eval-timeout', '0.2', '--format', 'jsonl']);
    expect(result.code).toBe(1);
    const row = JSON.parse(result.stdout) as { evals: Record<string, { passed?: boolean; error?: string }> };
    expect(row.evals.exact?.passed).toBe(true);
    expect(row.evals.slow?.error).toBe('timed out after 0.2s');
  });

  it('--judge-model picks the model of LLM-judge evals', async () => {
    await setUp(['polite']);
    const result = await run(['--rows', '0', '--judge-model', 'openai/gpt-4o', '--format', 'jsonl']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.map((request) => request.body.model)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    const row = JSON.parse(result.stdout) as { evals: Record<string, { passed?: boolean }> };
    expect(row.evals.polite?.passed).toBe(true);
  });
});
