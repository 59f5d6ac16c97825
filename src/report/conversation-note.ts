import type { ConversationEnd } from '../conversation/types.js';
import { userTurns } from '../conversation/user-turns.js';
import type { RowResult } from '../experiment/types.js';

/** `[6t stop]` from a conversation's user turns and how it ended (`stop`, `max`, `error`). */
export function turnsNote(turns: number, endedBy: ConversationEnd): string {
  return `[${turns}t ${endedBy === 'max_turns' ? 'max' : endedBy}]`;
}

/**
 * `[6t stop]`: a conversation row's user turns and how it ended, short enough to survive the result
 * cell's cut at 80 columns.
 */
export function conversationNote(row: RowResult): string | undefined {
  const conversation = row.conversation;
  return conversation === undefined ? undefined : turnsNote(userTurns(conversation.turns), conversation.endedBy);
}
