/** A boolean score bound to a built-in and a categorical one scored by the config; a calibration set whose rows 2–4 carry labels that do not fit. */
export const LABEL_PROJECT = {
  'agentmark.json': JSON.stringify({
    version: '2.0.0',
    agentmarkPath: 'prompts',
    builtInModels: ['openai/gpt-4o-mini'],
    scores: {
      polite: { type: 'boolean', scorer: 'contains', options: { value: 'please' } },
      tone: { type: 'categorical', categories: [{ label: 'warm', value: 1 }, { label: 'cold', value: 0 }] },
    },
  }),
  'agentmark.config.mjs': "export default { scorers: { tone: () => ({ label: 'warm' }) } };\n",
  'prompts/greet.prompt.mdx': '---\nname: greet\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/names.jsonl\n  evals: [polite, tone]\n---\n\n<User>Hello {props.name}</User>\n',
  'datasets/names.jsonl': [
    '{"input": {"name": "Ada"}, "labels": {"polite": true, "tone": "warm"}}',
    '{"input": {"name": "Bob"}, "labels": {"polite": 1}}',
    '{"input": {"name": "Cy"}, "labels": {"polite": false, "tone": "hot"}}',
    '{"input": {"name": "Di"}, "labels": {"politte": true}}',
    '',
  ].join('\n'),
};
