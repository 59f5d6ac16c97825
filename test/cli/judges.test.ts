import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIRequestInfo, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const QUESTIONS = ['What is the capital of France?', 'Which city is the French capital?', 'Where is Paris?'];

/**
 * Recorded judge answers, picked by the answer schema each judge asks for; the prompt's own call
 * (no schema) answers the question.
 */
function reply(request: OpenAIRequestInfo) {
  const fields = Object.keys((request.schema?.['properties'] as Record<string, unknown> | undefined) ?? {});
  if (fields.includes('choice')) return { object: { reasoning: 'adds the population', choice: 'B' } };
  if (fields.includes('answer')) return { object: { reasoning: 'does not name the river', answer: 'N' } };
  if (fields.includes('questions')) return { object: { reasoning: 'it names a capital', questions: QUESTIONS } };
  if (fields.includes('claims')) return { object: { reasoning: 'r', claims: [{ claim: 'Paris is the capital of France', supported: true }, { claim: 'Paris has 2 million people', supported: false }] } };
  if (fields.includes('statements')) return { object: { reasoning: 'r', statements: [{ statement: 'Paris', attributed: true }, { statement: 'capital', attributed: true }, { statement: 'on the Seine', attributed: false }] } };
  if (fields.includes('sentences')) return { object: { reasoning: 'r', sentences: [{ sentence: 'Paris is the capital of France.', relevant: true }] } };
  if (fields.includes('score')) return { object: { reasoning: '1. names the city: yes', score: 8 } };
  return { text: 'Paris is the capital of France, with 2 million people.' };
}

const evals = ['factuality', 'closed_qa', 'g_eval', 'answer_relevance', 'context_faithfulness', 'context_recall', 'context_relevance'];

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer({ handler: reply });
  project = await cliProject({
    'prompts/rag.prompt.mdx': `---\nname: rag\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/rag.jsonl\n  evals: [${evals.join(', ')}]\n---\n\n<User>{props.question}</User>\n`,
    'datasets/rag.jsonl': [
      JSON.stringify({ input: { question: 'What is the capital of France?', context: ['Paris is the capital of France.', 'It lies on the Seine.'] }, expected_output: 'Paris, on the Seine.' }),
      JSON.stringify({ input: { question: 'What is the capital of France?' }, expected_output: 'Paris' }),
    ].join('\n'),
  });
  const config = JSON.parse(await project.read('agentmark.json')) as { scores: Record<string, unknown> };
  for (const name of evals) config.scores[name] = { type: 'boolean', description: name === 'g_eval' ? 'Names the right city' : `the ${name} check` };
  await project.write('agentmark.json', JSON.stringify(config));
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

type Result = { score: number | null; passed: boolean | null; label: string | null; reason: string | null; error: string | null };

describe('judges against the loopback server, with recorded answers', () => {
  it('each turns its structured answer into a score, a verdict and a reason', async () => {
    const result = await project.run(['run-experiment', 'prompts/rag.prompt.mdx', '--format', 'json', '--quiet', '--concurrency', '1'], { server });
    const report = JSON.parse(result.stdout) as { rows: Array<{ evals: Record<string, Result> }> };
    const first = report.rows[0]?.evals ?? {};
    expect(first['factuality']).toMatchObject({ label: 'B', score: 1, passed: true, reason: '(B) the submission is a superset of the expert answer and fully consistent with it: adds the population' });
    expect(first['closed_qa']).toMatchObject({ passed: false, score: 0, reason: 'N: does not name the river' });
    expect(first['g_eval']).toMatchObject({ score: 0.8, passed: true, reason: '8/10 >= threshold 0.7: 1. names the city: yes' });
    // Letter-count embeddings of the three questions against the row's: cosines 1, 0.860226, 0.620174
    // (numpy), mean 0.8268000249615423.
    expect(first['answer_relevance']?.score).toBeCloseTo(0.8268000249615423, 12);
    expect(first['answer_relevance']).toMatchObject({ passed: true });
    expect(first['answer_relevance']?.reason).toMatch(/^mean cosine 0\.8268 >= threshold 0\.7 of the questions the output answers: "What is the capital of France\?"/);
    expect(first['context_faithfulness']).toMatchObject({ score: 0.5, passed: false, reason: '1 of 2 claims supported (0.5 < threshold 0.7); not supported: "Paris has 2 million people"' });
    expect(first['context_recall']?.score).toBeCloseTo(2 / 3, 12);
    expect(first['context_recall']).toMatchObject({ passed: false, reason: '2 of 3 statements attributed (0.667 < threshold 0.7); not attributed: "on the Seine"' });
    expect(first['context_relevance']).toMatchObject({ score: 1, passed: true, reason: '1 of 1 sentences relevant (1 >= threshold 0.7)' });
    // The second row has no context: the three context judges are eval errors naming the field.
    const second = report.rows[1]?.evals ?? {};
    for (const name of ['context_faithfulness', 'context_recall', 'context_relevance']) {
      expect(second[name]?.error).toBe(`${name} reads the context from the row's "context" (in its input or beside it), which this row lacks (set options.context_field to another field)`);
    }
    expect(second['factuality']).toMatchObject({ label: 'B', passed: true });
  });

  it('the judges are asked with their own prompts: the factuality choices, the context, the expert answer', async () => {
    const judged = server.requests.filter((r) => r.path === '/v1/chat/completions' && JSON.stringify(r.body).includes('json_schema'));
    const text = (r: (typeof judged)[number]) => JSON.stringify(r.body['messages']);
    if (process.env.DBG) console.log(judged.length, judged.map(text).join('\n---\n').slice(0, 3000));
    const factuality = judged.find((r) => text(r).includes('Expert answer:\\nParis, on the Seine.'));
    expect(factuality && text(factuality)).toContain("(E) The answers differ, but these differences don't matter from the perspective of factuality.");
    const faithful = judged.find((r) => text(r).includes('faithful to a context'));
    expect(faithful && text(faithful)).toContain('Paris is the capital of France.\\n\\nIt lies on the Seine.');
    const closed = judged.find((r) => text(r).includes('Criterion:\\nParis, on the Seine.'));
    expect(closed).toBeDefined();
    const embeddings = server.requests.filter((r) => r.path === '/v1/embeddings').map((r) => (r.body['input'] as string[])[0]);
    expect(new Set(embeddings)).toEqual(new Set(QUESTIONS));
  });
});
