import { userTurns } from '../../conversation/user-turns.js';
import type { BuiltinScorer } from '../types.js';
import { defineScorer } from './define-scorer.js';

export interface TurnsOptions {
  /** Most user turns allowed. Required. */
  max: number;
}

/** A conversation's user turns ≤ `max`; a row that is not a conversation gets no verdict. */
export const turns = defineScorer<TurnsOptions>({
  name: 'turns',
  description: "Passes when a conversation's user turns are at most max; other rows get no verdict.",
  options: {
    type: 'object',
    properties: { max: { type: 'integer', minimum: 1 } },
    required: ['max'],
    additionalProperties: false,
  },
  create: (options) => (params) => {
    if (params.turns === undefined) return { skipped: true, reason: 'not a conversation' };
    const users = userTurns(params.turns);
    const passed = users <= options.max;
    return { passed, score: passed ? 1 : 0, reason: `${users} user turn${users === 1 ? '' : 's'} ${passed ? 'within' : 'exceeds'} max ${options.max}` };
  },
});

/** The simulated user said the stop text before `max_turns` (or the static row was answered). */
export const conversationEnded = defineScorer<Record<string, never>>({
  name: 'conversation_ended',
  description: 'Passes when the conversation ended by the stop text, not at max_turns or on an error; other rows get no verdict.',
  options: { type: 'object', properties: {}, additionalProperties: false },
  create: () => (params) => {
    const ended = params.conversation?.endedBy;
    if (ended === undefined) return { skipped: true, reason: 'not a conversation' };
    const passed = ended === 'stop';
    return { passed, score: passed ? 1 : 0, reason: passed ? 'ended by the stop text' : `ended by ${ended === 'max_turns' ? `max_turns (${params.conversation?.maxTurns ?? '?'})` : 'an error'}` };
  },
});

export const conversationScorers: BuiltinScorer[] = [turns, conversationEnded];
