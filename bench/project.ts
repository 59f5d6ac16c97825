/**
 * Generates a small AgentMark project in a temporary folder: agentmark.json with one
 * deterministic eval (`exact_match`), one prompt with text_config + test_settings.dataset, and
 * a JSONL dataset whose expected outputs match what the bench server answers.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';

export interface BenchProject {
  dir: string;
  /** Relative to `dir`, as given on the command line. */
  promptPath: string;
  rows: number;
  /** Writes one of the two prompt variants (both render requests the server answers the same way). */
  writePrompt(variant: 'a' | 'b'): Promise<void>;
  /** Removes `.agentmark/runs` (the run store) but keeps the response cache. */
  clearRuns(): Promise<void>;
  cleanup(): Promise<void>;
}

const AGENTMARK_JSON = {
  version: '2.0.0',
  mdxVersion: '1.0',
  agentmarkPath: 'prompts',
  builtInModels: ['openai/bench-model'],
  scores: {
    exact: {
      type: 'boolean',
      description: 'The answer equals the expected output.',
      scorer: 'exact_match',
    },
  },
};

function promptText(variant: 'a' | 'b'): string {
  const user = variant === 'a' ? '{props.q}' : 'Please answer: {props.q}';
  return [
    '---',
    'name: bench',
    'text_config:',
    '  model_name: openai/bench-model',
    '  temperature: 0',
    '  max_tokens: 8',
    'test_settings:',
    '  dataset: ../datasets/rows.jsonl',
    '  evals: [exact]',
    '  props:',
    '    q: question 0',
    '---',
    '',
    '<System>Answer with "answer" followed by the number in the question.</System>',
    '',
    `<User>${user}</User>`,
    '',
  ].join('\n');
}

export async function createBenchProject(rows: number): Promise<BenchProject> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-bench-'));
  await mkdir(join(dir, 'prompts'), { recursive: true });
  await mkdir(join(dir, 'datasets'), { recursive: true });
  await writeFile(join(dir, 'agentmark.json'), `${JSON.stringify(AGENTMARK_JSON, null, 2)}\n`);
  const promptPath = join('prompts', 'bench.prompt.mdx');
  const writePrompt = (variant: 'a' | 'b'): Promise<void> => writeFile(join(dir, promptPath), promptText(variant));
  await writePrompt('a');
  await writeDataset(join(dir, 'datasets', 'rows.jsonl'), rows);
  return {
    dir,
    promptPath,
    rows,
    writePrompt,
    clearRuns: () => rm(join(dir, '.agentmark', 'runs'), { recursive: true, force: true }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function writeDataset(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const batch: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    batch.push(JSON.stringify({ input: { q: `question ${i}` }, expected_output: `answer ${i}` }));
    if (batch.length === 1000 || i === rows - 1) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch.length = 0;
    }
  }
  out.end();
  await once(out, 'finish');
}
