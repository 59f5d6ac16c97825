import type { ScoreSchema } from '../../src/project/types.js';
import { bindEvals, type BindContext, type BoundEval, type EvalParams, type EvalResult } from '../../src/scoring/index.js';

/** A row's params with neutral defaults; tests override what they look at. */
export function params(overrides: Partial<EvalParams> = {}): EvalParams {
  return {
    input: {},
    output: '',
    metadata: {},
    messages: [],
    toolCalls: [],
    usage: undefined,
    latencyMs: undefined,
    costUsd: undefined,
    schema: undefined,
    ...overrides,
  };
}

export const PROJECT_ROOT = '/project';
export const PROMPT_PATH = '/project/prompts/p.prompt.mdx';

export function context(overrides: Partial<BindContext> = {}): BindContext {
  return { scores: {}, userScorers: {}, projectRoot: PROJECT_ROOT, promptPath: PROMPT_PATH, ...overrides };
}

/** Binds one eval `e` to a built-in through the score schema, as agentmark.json would. */
export async function builtin(
  scorer: string,
  options: Record<string, unknown> = {},
  extra: Partial<BindContext> & { schema?: Omit<ScoreSchema, 'scorer' | 'options'> } = {},
): Promise<BoundEval> {
  const { schema = { type: 'boolean' }, ...rest } = extra;
  const { evals } = await bindEvals(['e'], context({ scores: { e: { ...schema, scorer, options } }, ...rest }));
  const bound = evals[0];
  if (!bound) throw new Error('nothing bound');
  return bound;
}

/** Binds and runs a built-in on one row, returning its raw result. */
export async function run(
  scorer: string,
  options: Record<string, unknown>,
  row: Partial<EvalParams>,
  extra: Parameters<typeof builtin>[2] = {},
): Promise<EvalResult> {
  const bound = await builtin(scorer, options, extra);
  return bound.scorer(params(row));
}
