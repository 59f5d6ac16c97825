import type { ConversationEnd } from '../conversation/types.js';
import type { RowResult } from '../experiment/types.js';

/** `[6t stop]` from a transcript's turn count and how it ended (`stop`, `max`, `error`). */
export function turnsNote(turns: number, endedBy: ConversationEnd): string {
  return `[${turns}t ${endedBy === 'max_turns' ? 'max' : endedBy}]`;
}

/**
 * `[6t stop]`: a conversation row's turns and how it ended, short enough to survive the result
 * cell's cut at 80 columns.
 */
export function conversationNote(row: RowResult): string | undefined {
  const conversation = row.conversation;
  return conversation === undefined ? undefined : turnsNote(conversation.turns.length, conversation.endedBy);
}
