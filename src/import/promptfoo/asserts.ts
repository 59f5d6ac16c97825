import type { ScoreSpec } from '../project-builder.js';
import { str } from './context.js';
import type { Assertion } from './csv-asserts.js';
import { modelId } from './providers.js';

/** What one assertion becomes: a built-in with options, a config scorer, or nothing (with why). */
export type MappedAssert =
  | { kind: 'builtin'; base: string; spec: ScoreSpec; options: Record<string, unknown>; /** The reference a judge reads from the row's expected_output. */ expectedOutput?: string }
  | { kind: 'config'; base: string; spec: ScoreSpec; source: string; helper?: 'promptfooResult' | 'levenshteinDistance' | 'containsJson' }
  | { kind: 'left-out'; why: string };

const bool = (scorer: string, options: Record<string, unknown>, description?: string): MappedAssert => ({
  kind: 'builtin',
  base: scorer,
  spec: { type: 'boolean', scorer, ...(description ? { description } : {}) },
  options,
});
const ranged = (scorer: string, options: Record<string, unknown>): MappedAssert => ({ kind: 'builtin', base: scorer, spec: { type: 'numeric', min: 0, max: 1, scorer }, options });
const list = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : typeof value === 'string' ? value.split(',').map((v) => v.trim()) : undefined);
/** RE2 pattern matching any of the texts literally. */
const anyOf = (values: string[]): string => values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/** Assertions that need a judge, and the option that carries their value. */
/** `valueOption: 'expected_output'`: the judge reads its reference from the row's expected output. */
const JUDGED: Record<string, { scorer: string; valueOption?: string; threshold?: boolean }> = {
  'llm-rubric': { scorer: 'llm_judge', valueOption: 'criteria' },
  'model-graded-closedqa': { scorer: 'closed_qa', valueOption: 'criteria' },
  factuality: { scorer: 'factuality', valueOption: 'expected_output' },
  'model-graded-factuality': { scorer: 'factuality', valueOption: 'expected_output' },
  'answer-relevance': { scorer: 'answer_relevance', threshold: true },
  'context-faithfulness': { scorer: 'context_faithfulness', threshold: true },
  'context-recall': { scorer: 'context_recall', valueOption: 'expected_output', threshold: true },
  'context-relevance': { scorer: 'context_relevance', threshold: true },
  'g-eval': { scorer: 'g_eval', valueOption: 'criteria', threshold: true },
};

const OVERLAP: Record<string, { scorer: string; threshold: number }> = {
  bleu: { scorer: 'bleu', threshold: 0.5 },
  gleu: { scorer: 'gleu', threshold: 0.5 },
  meteor: { scorer: 'meteor', threshold: 0.5 },
  'rouge-n': { scorer: 'rouge_n', threshold: 0.75 },
};

/** Assertions whose value becomes the row's expected_output. */
export const REFERENCE_ASSERTIONS = new Set(Object.entries(JUDGED).filter(([, j]) => j.valueOption === 'expected_output').map(([type]) => type));

/** Every assertion type this importer knows, for the guide's table and the "unknown" message. */
export const KNOWN_ASSERTIONS = [
  'not-starts-with', 'not-contains', 'not-icontains', 'not-regex', 'not-contains-any', 'not-icontains-any',
  'equals', 'contains', 'icontains', 'contains-any', 'icontains-any', 'contains-all', 'icontains-all', 'regex', 'starts-with',
  'is-json', 'contains-json', 'is-valid-openai-tools-call', 'is-valid-function-call', 'is-valid-openai-function-call', 'javascript', 'python',
  'similar', 'levenshtein', 'latency', 'cost', 'word-count', ...Object.keys(JUDGED), ...Object.keys(OVERLAP),
];

/** One promptfoo assertion (its value already filled from the test's vars) → an eval. */
export function mapAssertion(a: Assertion): MappedAssert {
  const type = str(a.type) ?? '';
  const value = a['value'];
  const threshold = typeof a['threshold'] === 'number' ? a['threshold'] : undefined;
  const text = typeof value === 'string' ? value : undefined;
  const needText = (make: (v: string) => MappedAssert): MappedAssert => (text === undefined ? { kind: 'left-out', why: `${type} needs a string value` } : make(text));
  const needList = (make: (v: string[]) => MappedAssert): MappedAssert => {
    const values = list(value);
    return values === undefined ? { kind: 'left-out', why: `${type} needs a list of strings` } : make(values);
  };
  switch (type) {
    case 'equals':
      return text === undefined ? { kind: 'left-out', why: 'equals with a non-string value (JSON) has no counterpart; use is-json with a schema' } : bool('one_of', { values: [text], trim: false });
    case 'contains':
      return needText((v) => bool('contains', { value: v }));
    case 'icontains':
      return needText((v) => bool('icontains', { value: v }));
    case 'not-contains':
    case 'not-icontains':
      return needText((v) => bool('not_contains', type === 'not-icontains' ? { value: v, ignoreCase: true } : { value: v }));
    case 'contains-any':
    case 'icontains-any':
    case 'contains-all':
    case 'icontains-all':
      return needList((values) => bool(type.includes('all') ? 'contains_all' : 'contains_any', type.startsWith('i') ? { values, ignoreCase: true } : { values }));
    case 'not-contains-any':
    case 'not-icontains-any':
      return needList((values) => bool('not_regex', type.includes('icontains') ? { pattern: anyOf(values), flags: 'i' } : { pattern: anyOf(values) }));
    case 'regex':
    case 'not-regex':
      return needText((pattern) => bool(type === 'regex' ? 'regex' : 'not_regex', { pattern }));
    case 'not-starts-with':
      return needText((v) => bool('not_regex', { pattern: `^${anyOf([v])}` }));
    case 'starts-with':
      return needText((v) => bool('starts_with', { value: v, trim: false }));
    case 'is-json':
      return value === undefined ? bool('json_valid', {}) : typeof value === 'object' ? bool('json_schema', { schema: value }) : { kind: 'left-out', why: 'is-json with a schema from a file: inline the schema' };
    case 'contains-json':
      return value === undefined ? { kind: 'config', base: 'contains_json', spec: { type: 'boolean' }, source: '({ output }) => containsJson(text(output))', helper: 'containsJson' } : { kind: 'left-out', why: 'contains-json with a schema has no counterpart' };
    case 'is-valid-openai-tools-call':
    case 'is-valid-function-call':
    case 'is-valid-openai-function-call':
      return bool('is_valid_tools_call', {});
    case 'similar':
      // A cosine: -1..1.
      return needText((v) => ({ kind: 'builtin', base: 'similar', spec: { type: 'numeric', min: -1, max: 1, scorer: 'similar' }, options: { value: v, threshold: threshold ?? 0.75 } }));
    case 'levenshtein':
      return needText((v) => ({
        kind: 'config',
        base: 'levenshtein_distance',
        spec: { type: 'boolean', description: `edit distance to the value at most ${threshold ?? 5}` },
        source: `({ output }) => {\n  const distance = levenshteinDistance(text(output), ${JSON.stringify(v)});\n  return { passed: distance <= ${threshold ?? 5}, reason: \`edit distance \${distance} (at most ${threshold ?? 5})\` };\n}`,
        helper: 'levenshteinDistance',
      }));
    case 'latency':
      return threshold === undefined ? { kind: 'left-out', why: 'latency needs a threshold (ms)' } : bool('latency', { maxMs: threshold });
    case 'cost':
      return threshold === undefined ? { kind: 'left-out', why: 'cost needs a threshold (USD)' } : bool('cost', { maxUsd: threshold });
    case 'word-count': {
      const range = typeof value === 'number' ? { min: value, max: value } : value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
      return range === undefined ? { kind: 'left-out', why: 'word-count needs a number or { min, max }' } : bool('word_count', Object.fromEntries(Object.entries(range).filter(([k]) => k === 'min' || k === 'max')));
    }
    case 'python':
      return { kind: 'left-out', why: 'python assertions are not run: port it to a scorer in agentmark.config.ts (kept verbatim in IMPORT.md)' };
    default:
      break;
  }
  const overlap = OVERLAP[type];
  if (overlap !== undefined) return needText((v) => ranged(overlap.scorer, { value: v, threshold: threshold ?? overlap.threshold }));
  const judged = JUDGED[type];
  if (judged !== undefined) {
    const options: Record<string, unknown> = {};
    if (judged.valueOption !== undefined) {
      if (text === undefined) return { kind: 'left-out', why: `${type} needs a string value` };
      if (judged.valueOption !== 'expected_output') options[judged.valueOption] = text;
    }
    if (judged.threshold && threshold !== undefined) options['threshold'] = threshold;
    const grader = str(a['provider']) ?? str((a['provider'] as Record<string, unknown> | undefined)?.['id']);
    const model = grader === undefined ? undefined : modelId(grader);
    if (model !== undefined) options['model'] = model.id;
    const made = bool(judged.scorer, options);
    return judged.valueOption === 'expected_output' && text !== undefined && made.kind === 'builtin' ? { ...made, expectedOutput: text } : made;
  }
  if (type === 'javascript') return { kind: 'left-out', why: 'a javascript assertion must be inline code here' };
  if (type.startsWith('not-')) return { kind: 'left-out', why: `the negation of ${type.slice(4)} has no counterpart` };
  return { kind: 'left-out', why: `unknown assertion type "${type}" (known: ${KNOWN_ASSERTIONS.join(', ')})` };
}
