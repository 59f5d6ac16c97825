import type { OpenAIReply, OpenAIRequestInfo } from '../helpers/openai-server.js';

/**
 * The loopback server's answers for review and calibration tests: the model (gpt-4o-mini)
 * echoes the row's word; the judge (gpt-4o) calls a reply polite exactly when it says "please".
 */
export function pleaseJudge(request: OpenAIRequestInfo): OpenAIReply {
  if (request.model !== 'gpt-4o') return { text: request.lastUserText };
  return { object: { reasoning: 'looked for please', passed: request.messagesText.includes('please') } };
}

/** The boolean judged eval both tests use, as `scores` in agentmark.json. */
export const POLITE = { type: 'boolean', scorer: 'llm_judge', description: 'Is the reply polite?' } as const;
