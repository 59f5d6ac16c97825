import { tempProject } from '../helpers/temp-project.js';

/**
 * A small project for the language-server tests: one score schema (`polite`), a prompt whose
 * evals name a typo of a built-in (`exact_mach`), a dataset with one good row, a row that breaks
 * the input_schema and a line of bad JSON, and a config registering a scorer.
 */
export const PROMPT = [
  '---', // 1
  'name: greet',
  'text_config:',
  '  model_name: openai/gpt-4o-mini',
  'input_schema:', // 5
  '  type: object',
  '  properties:',
  '    name: { type: string }',
  '  required: [name]',
  'test_settings:', // 10
  '  dataset: ../datasets/names.jsonl',
  '  evals: [exact_mach, polite]',
  '---',
  '',
  '<User>Hello {props.name}</User>', // 15
  '',
].join('\n');

export const PROJECT = `{
  "version": "2.0.0",
  "agentmarkPath": "prompts",
  "builtInModels": ["openai/gpt-4o-mini", "openai/gpt-4o"],
  "scores": {
    "polite": { "type": "boolean", "description": "The reply is polite.", "scorer": "contains", "options": { "value": "please" } }
  }
}
`;

export const DATASET = '{"input": {"name": "Ada"}, "expected_output": "Hi Ada"}\n{"input": {"nam": "Bob"}}\n{bad json\n';

export const CONFIG = `export default {
  scorers: {
    short_reply: ({ output }) => ({ passed: String(output).length < 200 }),
  },
};
`;

export function lspProject(files: Record<string, string> = {}) {
  return tempProject({
    'agentmark.json': PROJECT,
    'prompts/greet.prompt.mdx': PROMPT,
    'datasets/names.jsonl': DATASET,
    'agentmark.config.mjs': CONFIG,
    ...files,
  });
}
