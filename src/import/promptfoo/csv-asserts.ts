/** A promptfoo assertion as written in a config (type, value, threshold, …). */
export type Assertion = Record<string, unknown> & { type?: unknown };

/**
 * An `__expected` CSV cell in promptfoo's shorthand: `contains: x`, `icontains: x`,
 * `regex: x`, `starts-with: x`, `is-json`, `javascript: code` / `fn: code`, `grade: rubric`
 * (llm-rubric), `similar(0.8): text`, `levenshtein(5): text`, `not-…` forms, anything
 * else an `equals`.
 */
export function csvAssertion(cell: string): Assertion {
  const text = cell.trim();
  const match = /^(not-)?([a-z][a-z0-9-]*)(?:\(([\d.]+)\))?(?::\s?([\s\S]*))?$/.exec(text);
  if (match === null) return { type: 'equals', value: cell };
  const [, not, rawType = '', threshold, value] = match;
  const aliases: Record<string, string> = { fn: 'javascript', eval: 'javascript', grade: 'llm-rubric', python: 'python' };
  const type = aliases[rawType] ?? rawType;
  const known = KNOWN_SHORTHAND.has(type);
  // `Paris` or `yes: please` is a plain expected value, not an assertion.
  if (!known || (value === undefined && !NO_VALUE.has(type))) return { type: 'equals', value: cell };
  const out: Assertion = { type: `${not ?? ''}${type}` };
  if (value !== undefined) out['value'] = value;
  if (threshold !== undefined) out['threshold'] = Number(threshold);
  return out;
}

const NO_VALUE = new Set(['is-json', 'contains-json', 'is-valid-openai-tools-call', 'is-valid-function-call', 'answer-relevance', 'context-faithfulness', 'context-relevance', 'is-refusal', 'is-sql', 'is-xml', 'contains-xml', 'is-html']);
const KNOWN_SHORTHAND = new Set([
  ...NO_VALUE,
  'equals', 'contains', 'icontains', 'contains-any', 'contains-all', 'icontains-any', 'icontains-all', 'regex', 'starts-with',
  'javascript', 'python', 'llm-rubric', 'similar', 'levenshtein', 'bleu', 'gleu', 'meteor', 'rouge-n', 'factuality',
  'model-graded-closedqa', 'model-graded-factuality', 'context-recall', 'g-eval', 'latency', 'cost', 'word-count', 'perplexity', 'classifier', 'moderation', 'webhook',
]);
