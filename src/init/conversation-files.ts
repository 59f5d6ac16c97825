/**
 * What `agentmark init --conversation` adds: a support chat prompt whose rows are
 * conversations with a simulated customer (itself a prompt file, kept outside `prompts/` so a
 * run of the folder does not take it for an experiment), a dataset of scenarios, and the score
 * schemas its evals bind to.
 */
export const CHAT_PROMPT_PATH = 'prompts/support-chat.prompt.mdx';
export const CUSTOMER_PATH = 'simulators/customer.prompt.mdx';
export const CHAT_DATASET_PATH = 'datasets/support-chat.jsonl';

/** Score schemas added to agentmark.json's `scores`. */
export const CONVERSATION_SCORES = {
  conversation_ended: {
    type: 'boolean',
    description: 'The simulated customer reached their goal and said stop before max_turns.',
    scorer: 'conversation_ended',
  },
  no_blame: {
    type: 'boolean',
    description: 'The reply never blames the customer (each assistant turn).',
    scorer: 'not_contains',
    options: { value: 'your fault', ignoreCase: true },
  },
};

const CHAT_PROMPT = `---
name: support-chat
text_config:
  model_name: openai/gpt-4o-mini
  temperature: 0
test_settings:
  dataset: ../${CHAT_DATASET_PATH}
  conversation:
    simulator: ../${CUSTOMER_PATH}
    max_turns: 4
  evals: [conversation_ended]
  turn_evals: [no_blame]
input_schema:
  type: object
  properties:
    shop: { type: string }
  required: [shop]
---

<System>
You are the support assistant of {props.shop}. Answer in one or two short sentences and say
what happens next.
</System>
`;

const CUSTOMER = `---
name: customer
text_config:
  model_name: openai/gpt-4o-mini
  temperature: 0
input_schema:
  type: object
  properties:
    goal: { type: string }
  required: [goal]
---

<System>
You are a customer chatting with a shop's support assistant. Your goal: {props.goal}.
Write one short message at a time. When your goal is reached, reply with exactly ###STOP###.
</System>
`;

const ROWS = [
  { input: { shop: 'Acme Books' }, scenario: { goal: 'get a refund for a book that arrived damaged' } },
  { input: { shop: 'Acme Books' }, scenario: { goal: 'find out when order 1042 will arrive' } },
];

/** Relative path → contents, after the starter project's files. */
export const CONVERSATION_FILES: ReadonlyArray<readonly [string, string]> = [
  [CHAT_PROMPT_PATH, CHAT_PROMPT],
  [CUSTOMER_PATH, CUSTOMER],
  [CHAT_DATASET_PATH, `${ROWS.map((row) => JSON.stringify(row)).join('\n')}\n`],
];
