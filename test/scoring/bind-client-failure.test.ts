import { describe, expect, it } from 'vitest';
import { EvalBindingError } from '../../src/errors/index.js';
import { bindEvals } from '../../src/scoring/index.js';
import { context, PROMPT_PATH } from './fixtures.js';

const clientFailure = { file: '/project/agentmark.client.ts', reason: "Cannot find module '@agentmark-ai/loader-api'" };

describe('bindEvals when the AgentMark client could not be loaded', () => {
  it('an eval nothing else scores fails naming the client and the reason', async () => {
    const error = await bindEvals(['sentiment_check'], context({ clientFailure })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvalBindingError);
    expect(error).toMatchObject({
      code: 'EVAL_CLIENT_NOT_LOADED',
      message: `eval "sentiment_check" has no scorer here, and agentmark.client.ts, which may register it, could not be loaded: Cannot find module '@agentmark-ai/loader-api'`,
      location: { file: PROMPT_PATH },
      hint: 'install what agentmark.client.ts imports (npm install), or register a scorer named sentiment_check in agentmark.config.ts',
    });
  });

  it('evals a config scorer or a built-in scores still bind', async () => {
    const mine = () => ({ passed: true });
    const { evals } = await bindEvals(['mine', 'exact_match'], context({ clientFailure, userScorers: { mine } }));
    expect(evals.map((e) => [e.name, e.source])).toEqual([['mine', 'user'], ['exact_match', 'builtin']]);
  });
});
