import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// The loopback server echoes each word, and embeds a text as its letter counts
// (test/helpers/openai-embeddings.ts), so each cosine can be worked out by hand.
let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject({
    'prompts/similar.prompt.mdx': '---\nname: similar\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/pairs.jsonl\n  evals: [similar]\n---\n\n<User>{props.word}</User>\n',
    'datasets/pairs.jsonl': ['{"input":{"word":"listen"},"expected_output":"silent"}', '{"input":{"word":"abc"},"expected_output":"abd"}', '{"input":{"word":"aab"},"expected_output":"ab"}'].join('\n'),
  });
  const config = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
  config.scores['similar'] = { type: 'boolean', description: 'Means the same as the expected output' };
  await project.write('agentmark.json', JSON.stringify(config));
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

interface Report {
  rows: Array<{ evals: { similar: { score: number; passed: boolean; reason: string } } }>;
  summary: { judge?: { calls: number; cached: number; usage: { inputTokens: number }; costUsd?: number } };
}

const run = async (): Promise<Report> => {
  const result = await project.run(['run-experiment', 'prompts/similar.prompt.mdx', '--format', 'json', '--quiet'], { server });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Report;
};

describe('similar (embeddings from the loopback server)', () => {
  it('scores the cosine of the two embeddings against the 0.75 threshold, with text-embedding-3-small', async () => {
    const before = server.requests.length;
    const report = await run();
    // Letter-count vectors: listen/silent are anagrams (cos 1); abc·abd = 2 over √3·√3 = 2/3;
    // aab·ab = 3 over √5·√2 = 3/√10 = 0.948683 (numpy gives 1.0000000000000002, 0.6666666666666667, 0.9486832980505138).
    const similar = report.rows.map((row) => row.evals.similar);
    expect(similar.map((s) => s.passed)).toEqual([true, false, true]);
    expect(similar[0]?.score).toBeCloseTo(1, 12);
    expect(similar[1]?.score).toBeCloseTo(2 / 3, 12);
    expect(similar[2]?.score).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(similar.map((s) => s.reason)).toEqual([
      'cosine 1 >= threshold 0.75 (openai/text-embedding-3-small)',
      'cosine 0.6667 < threshold 0.75 (openai/text-embedding-3-small)',
      'cosine 0.9487 >= threshold 0.75 (openai/text-embedding-3-small)',
    ]);
    const embeddings = server.requests.slice(before).filter((r) => r.path === '/v1/embeddings');
    expect(embeddings.map((r) => [r.body['model'], r.body['input']]).sort()).toEqual([
      ['text-embedding-3-small', ['aab']],
      ['text-embedding-3-small', ['ab']],
      ['text-embedding-3-small', ['abc']],
      ['text-embedding-3-small', ['abd']],
      ['text-embedding-3-small', ['listen']],
      ['text-embedding-3-small', ['silent']],
    ]);
    // Six one-word texts, one token each at $0.02 per million: 6 × 0.02 / 1e6.
    expect(report.summary.judge).toMatchObject({ calls: 6, cached: 0, usage: { inputTokens: 6 } });
    expect(report.summary.judge?.costUsd).toBeCloseTo(1.2e-7, 15);
  });

  it('a second run answers every embedding from the cache: no request, nothing spent', async () => {
    const before = server.requests.length;
    const report = await run();
    expect(server.requests.slice(before)).toEqual([]);
    expect(report.rows.map((row) => row.evals.similar.passed)).toEqual([true, false, true]);
    expect(report.summary.judge).toMatchObject({ calls: 6, cached: 6 });
  });
});
