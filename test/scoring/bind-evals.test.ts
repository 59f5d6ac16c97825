import { describe, expect, it } from 'vitest';
import { EvalBindingError } from '../../src/errors/index.js';
import { bindEvals, builtinScorers, runEval } from '../../src/scoring/index.js';
import { context, params, PROMPT_PATH } from './fixtures.js';

const BUILTINS = Object.keys(builtinScorers).join(', ');

async function bindError(names: string[], ctx = context()): Promise<EvalBindingError> {
  const error = await bindEvals(names, ctx).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EvalBindingError);
  return error as EvalBindingError;
}

describe('bindEvals', () => {
  it('lists every built-in', () => {
    expect(Object.keys(builtinScorers)).toEqual([
      'exact_match', 'contains', 'icontains', 'not_contains', 'regex', 'starts_with', 'one_of', 'contains_any',
      'contains_all', 'not_regex', 'word_count', 'json_valid', 'json_schema', 'json_fields', 'levenshtein', 'similar',
      'bleu', 'gleu', 'rouge_n', 'rouge_l', 'meteor', 'numeric', 'tool_calls', 'is_valid_tools_call',
      'latency', 'tokens', 'cost', 'max_steps', 'max_model_calls', 'max_memory_mb', 'turns', 'conversation_ended',
      'llm_judge', 'accuracy', 'goal_completed', 'role_adherence', 'knowledge_retention', 'turn_relevancy', 'factuality', 'closed_qa',
      'g_eval', 'answer_relevance', 'context_faithfulness', 'context_recall', 'context_relevance',
    ]);
    for (const scorer of Object.values(builtinScorers)) expect(scorer.description.length).toBeGreaterThan(10);
  });

  it('prefers a user scorer, then the schema scorer key, then a built-in of the same name', async () => {
    const user = () => ({ passed: true, reason: 'user' });
    const { evals, warnings } = await bindEvals(['mine', 'polite', 'exact_match'], context({
      userScorers: { mine: user },
      scores: {
        mine: { type: 'boolean', scorer: 'contains', options: { value: 'x' } },
        polite: { type: 'boolean', scorer: 'not_contains', options: { value: 'sorry' } },
        exact_match: { type: 'boolean' },
      },
    }));
    expect(evals.map((e) => [e.name, e.source, e.builtin])).toEqual([
      ['mine', 'user', undefined],
      ['polite', 'builtin', 'not_contains'],
      ['exact_match', 'builtin', 'exact_match'],
    ]);
    expect(evals[0]?.scorer).toBe(user);
    expect(warnings).toEqual([
      'eval mine: scores.mine.scorer "contains" is ignored because agentmark.config registers a scorer named mine',
    ]);
    const polite = evals[1];
    if (!polite) throw new Error('unbound');
    expect(await runEval(polite, params({ output: 'sorry!' }))).toEqual({ passed: false, score: 0, normalized: 0, reason: 'output contains "sorry"' });
  });

  it('warns once per eval without a score schema', async () => {
    const { evals, warnings } = await bindEvals(['json_valid', 'json_valid'], context());
    expect(evals).toHaveLength(1);
    expect(evals[0]?.schema).toBeUndefined();
    expect(warnings).toEqual(['eval json_valid has no score schema in agentmark.json; its results are shown untyped']);
  });

  it('an unknown eval lists what is available and suggests the closest', async () => {
    const error = await bindError(['exact_mach'], context({ userScorers: { tone: () => ({}) } }));
    expect(error.code).toBe('EVAL_NOT_FOUND');
    expect(error.message).toBe(`eval "exact_mach" has no scorer; available: tone, ${BUILTINS}`);
    expect(error.hint).toBe('did you mean "exact_match"?');
    expect(error.location).toEqual({ file: PROMPT_PATH });
  });

  it('an unknown eval with nothing close says how to add one', async () => {
    const error = await bindError(['helpfulness']);
    expect(error.message).toBe(`eval "helpfulness" has no scorer; available: ${BUILTINS}`);
    expect(error.hint).toBe(
      'register a scorer named helpfulness in agentmark.config.ts, or set scores.helpfulness.scorer to a built-in in agentmark.json',
    );
  });

  it('names a schema scorer that is not a built-in', async () => {
    const error = await bindError(['x'], context({ scores: { x: { type: 'boolean', scorer: 'regexp' } } }));
    expect(error.code).toBe('EVAL_UNKNOWN_SCORER');
    expect(error.message).toBe('eval "x": scores.x.scorer "regexp" is not a built-in scorer');
    expect(error.hint).toBe(`did you mean "regex"? built-ins: ${BUILTINS}`);
  });

  it('reports every option violation with the options it takes', async () => {
    const error = await bindError(['lev'], context({
      scores: { lev: { type: 'numeric', scorer: 'levenshtein', options: { threshold: 'high', trimm: true } } },
    }));
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    expect(error.message).toBe(
      'eval "lev": invalid options for built-in "levenshtein": must NOT have additional properties (trimm); /threshold must be number',
    );
    expect(error.hint).toBe('options of levenshtein: threshold (number), ignoreCase (boolean), trim (boolean), value (string)');
    expect(error.format()).toBe(
      `${PROMPT_PATH}: ${error.message}\n  hint: ${error.hint}`,
    );
  });

  it('missing options of a built-in that requires some are an error, not a skipped check', async () => {
    const error = await bindError(['rx'], context({ scores: { rx: { type: 'boolean', scorer: 'regex' } } }));
    expect(error.code).toBe('EVAL_INVALID_OPTIONS');
    expect(error.message).toBe('eval "rx": invalid options for built-in "regex": must have required property \'pattern\'');
  });
});
