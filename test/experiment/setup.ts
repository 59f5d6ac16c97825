import type { LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { loadProject, type LoadedConfig } from '../../src/project/index.js';
import { runExperiment, type ExperimentOutcome, type RunEvent, type RunExperimentOptions } from '../../src/experiment/index.js';
import { answer, text } from '../model/mock-model.js';
import { tempProject } from '../helpers/temp-project.js';

export const scores = {
  exact: { type: 'boolean', scorer: 'exact_match' },
  length: { type: 'numeric', min: 0, max: 10 },
};

export function agentmarkJson(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ version: '2.0.0', mdxVersion: '1.0', agentmarkPath: 'prompts', builtInModels: [], scores, ...extra });
}

export function promptFile(options: { model?: string; evals?: string[]; dataset?: string; extra?: string } = {}): string {
  return [
    '---',
    'name: echo',
    'text_config:',
    `  model_name: ${options.model ?? 'mock/echo'}`,
    '  temperature: 0.5',
    options.extra ?? '',
    'test_settings:',
    `  dataset: ${options.dataset ?? '../datasets/words.jsonl'}`,
    `  evals: [${(options.evals ?? ['exact']).join(', ')}]`,
    '---',
    '',
    '<User>{props.word}</User>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .replace('---\n<User>', '---\n\n<User>');
}

export function wordsDataset(words: string[], extra: (i: number) => Record<string, unknown> = () => ({})): string {
  return `${words.map((word, i) => JSON.stringify({ input: { word }, expected_output: word, ...extra(i) })).join('\n')}\n`;
}

/** A mock model answering each request with its last user message, counting calls. */
export function echoModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const last = [...options.prompt].reverse().find((message) => message.role === 'user');
      const parts = last && Array.isArray(last.content) ? last.content : [];
      const said = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return answer(text(said));
    },
  });
}

export interface Fixture {
  dir: string;
  cleanup: () => Promise<void>;
  run: (options?: Partial<RunExperimentOptions>, config?: Partial<LoadedConfig>) => Promise<ExperimentOutcome>;
  events: RunEvent[];
}

/** A temp project (agentmark.json, prompts/echo.prompt.mdx, datasets/words.jsonl) run in-process. */
export async function fixture(files: Record<string, string> = {}, model: LanguageModel = echoModel()): Promise<Fixture> {
  const { dir, cleanup } = await tempProject({
    'agentmark.json': agentmarkJson(),
    'prompts/echo.prompt.mdx': promptFile(),
    'datasets/words.jsonl': wordsDataset(['alpha', 'beta', 'gamma']),
    ...files,
  });
  const events: RunEvent[] = [];
  return {
    dir,
    cleanup,
    events,
    run: async (options = {}, config = {}) => {
      const project = await loadProject(dir);
      return runExperiment({
        project,
        config: { path: undefined, files: [], providers: { mock: () => model }, ...config },
        promptPath: `${dir}/prompts/echo.prompt.mdx`,
        env: {},
        onEvent: (event) => {
          events.push(event);
        },
        ...options,
      });
    },
  };
}
