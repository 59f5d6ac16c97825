import type { DatasetRow } from '../dataset/types.js';
import { rowMessages } from './row-check.js';
import { addUsage, zeroUsage, type TurnAnswer } from './turn-answer.js';
import type { ConversationEnd, ConversationSettings, ConversationTurn, SimulatorSpend, TranscriptMessage } from './types.js';

/** What a conversation's turns are answered by; each call goes through the run's model caller. */
export interface ConversationParties {
  /** The system under test: the conversation so far → its next reply. */
  answer(history: readonly TranscriptMessage[]): Promise<TurnAnswer>;
  /** The simulated user, seeing the conversation from its side (roles swapped). */
  simulate?(swapped: readonly TranscriptMessage[]): Promise<TurnAnswer>;
}

export interface ConversationOutcome {
  messages: TranscriptMessage[];
  turns: ConversationTurn[];
  endedBy: ConversationEnd;
  /** The simulated user's calls (answers received, and what the live ones cost). */
  simulator?: SimulatorSpend;
  /** What failed, when `endedBy` is `error`. */
  error?: unknown;
}

/**
 * Runs one conversation turn by turn: the row's given `messages` first, then (with a simulator)
 * the simulated user and the system under test in turn until the simulator's reply contains the
 * stop text (that reply is not a turn) or `maxTurns` user turns were answered. Without a
 * simulator the system under test answers the last user turn once (a static multi-turn row).
 * A failed call ends the conversation with `error`, keeping the turns before it.
 */
export async function runConversation(row: DatasetRow, settings: ConversationSettings | undefined, parties: ConversationParties): Promise<ConversationOutcome> {
  const messages = rowMessages(row);
  const turns: ConversationTurn[] = messages.map((message, index) => ({ index, ...message, given: true }));
  const simulate = parties.simulate;
  const simulator: SimulatorSpend | undefined = simulate === undefined ? undefined : { calls: 0, usage: zeroUsage() };
  let simulatorCost: number | undefined = 0;
  const maxTurns = settings?.maxTurns ?? Number.POSITIVE_INFINITY;
  const stop = settings?.stop;
  let userTurns = messages.filter((message) => message.role === 'user').length;
  const last = messages[messages.length - 1];
  // A static row (no simulator) is always answered, once: its given turns are its script.
  let next: 'user' | 'assistant' =
    simulate === undefined ? 'assistant' : last === undefined ? (settings?.opener ?? 'user') : last.role === 'user' ? 'assistant' : 'user';
  const push = (role: 'user' | 'assistant', reply: TurnAnswer, simulated: boolean): void => {
    messages.push({ role, content: reply.content });
    turns.push({
      index: turns.length,
      role,
      content: reply.content,
      ...(simulated ? { simulated: true as const } : {}),
      ...(reply.usage === undefined ? {} : { usage: reply.usage }),
      ...(reply.latencyMs === undefined ? {} : { latencyMs: reply.latencyMs }),
      cached: reply.cached,
    });
  };
  const outcome = (endedBy: ConversationEnd, error?: unknown): ConversationOutcome => ({
    messages,
    turns,
    endedBy,
    ...(simulator === undefined ? {} : { simulator: simulatorCost === undefined || simulator.calls === 0 ? simulator : { ...simulator, costUsd: simulatorCost } }),
    ...(error === undefined ? {} : { error }),
  });
  try {
    for (;;) {
      if (next === 'assistant') {
        push('assistant', await parties.answer(messages), false);
        if (simulate === undefined) return outcome('stop');
        next = 'user';
        continue;
      }
      if (simulate === undefined || userTurns >= maxTurns) return outcome('max_turns');
      const reply = await simulate(messages.map(swapRole));
      if (simulator !== undefined) {
        simulator.calls += 1;
        if (!reply.cached) {
          addUsage(simulator.usage, reply.usage);
          simulatorCost = simulatorCost === undefined || reply.costUsd === undefined ? undefined : simulatorCost + reply.costUsd;
        }
      }
      if (stop !== undefined && reply.content.includes(stop)) return outcome('stop');
      push('user', reply, true);
      userTurns += 1;
      next = 'assistant';
    }
  } catch (error) {
    return outcome('error', error);
  }
}

/** The conversation as the simulated user sees it: the assistant's replies are what it is told. */
export function swapRole(message: TranscriptMessage): TranscriptMessage {
  return { role: message.role === 'user' ? 'assistant' : 'user', content: message.content };
}
