/**
 * The files `agentmark init` writes: a project that validates and scores offline at once
 * (`score --outputs` reads the pre-generated outputs), and runs live once a key is set.
 */
export const PROMPT_PATH = 'prompts/sentiment.prompt.mdx';
export const DATASET_PATH = 'datasets/sentiment.jsonl';
export const OUTPUTS_PATH = 'datasets/sentiment-outputs.jsonl';

/** Where the schema is once the package is installed in the project (`npm install agentmark-eval`). */
const SCHEMA_PATH = './node_modules/agentmark-eval/schema/agentmark.schema.json';

const AGENTMARK_JSON = `${JSON.stringify(
  {
    $schema: SCHEMA_PATH,
    version: '2.0.0',
    mdxVersion: '1.0',
    agentmarkPath: 'prompts',
    builtInModels: [],
    scores: {
      correct_label: {
        type: 'boolean',
        description: 'The answer is the expected label.',
        scorer: 'exact_match',
        options: { ignoreCase: true, trim: true },
      },
      one_word: { type: 'boolean', description: 'The answer is a single word (scored in agentmark.config.ts).' },
    },
  },
  null,
  2,
)}\n`;

const PROMPT = `---
name: sentiment
text_config:
  model_name: openai/gpt-4o-mini
  temperature: 0
test_settings:
  dataset: ../${DATASET_PATH}
  evals: [correct_label, one_word]
  props:
    review: The soup was cold and the waiter ignored us.
input_schema:
  type: object
  properties:
    review: { type: string }
  required: [review]
---

<System>
You classify the sentiment of a restaurant review.
Answer with exactly one word: positive or negative.
</System>

<User>{props.review}</User>
`;

const CONFIG = `// Your own scorers, tools and model providers. Loaded at run time: no build step.
// (A type-only import: it is erased when the file loads, so scorers run without it.)
import type { AgentmarkConfig } from 'agentmark-eval';

const config: AgentmarkConfig = {
  scorers: {
    // Bound by name to the eval \`one_word\` (scores.one_word in agentmark.json).
    one_word: ({ output }) => {
      const words = String(output).trim().split(/\\s+/).filter(Boolean).length;
      return { passed: words === 1, reason: \`\${words} word\${words === 1 ? '' : 's'}\` };
    },
  },
};

export default config;
`;

const ROWS: Array<{ review: string; label: string }> = [
  { review: 'The pasta was perfect and the staff were lovely.', label: 'positive' },
  { review: 'We waited an hour and the food arrived cold.', label: 'negative' },
  { review: 'Best tiramisu I have had in years!', label: 'positive' },
  { review: 'Rude staff, dirty tables, never again.', label: 'negative' },
];

const jsonl = (rows: unknown[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

/** Relative path → contents, in the order they are reported. */
export const SCAFFOLD_FILES: ReadonlyArray<readonly [string, string]> = [
  ['agentmark.json', AGENTMARK_JSON],
  ['agentmark.config.ts', CONFIG],
  [PROMPT_PATH, PROMPT],
  [DATASET_PATH, jsonl(ROWS.map((row) => ({ input: { review: row.review }, expected_output: row.label })))],
  // The answers a model might give, so the evals can be tried with no key: \`agentmark score\`.
  [OUTPUTS_PATH, jsonl(ROWS.map((row) => ({ input: { review: row.review }, expected_output: row.label, output: row.label })))],
];

/** What runs write and what holds secrets: added to .gitignore when missing. */
export const GITIGNORE_ENTRIES = ['.agentmark/', '.env', '.env.local', 'node_modules/'] as const;
