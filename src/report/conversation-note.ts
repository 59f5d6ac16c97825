import type { ConversationEnd, ConversationRecord } from '../conversation/types.js';
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

/**
 * A changed conversation row's turns on each side, `[2t max] → [3t stop]` (`—` for a side that
 * is not a conversation): the terminal and markdown have no room for the two transcripts side by
 * side (the viewer's compare page has), but a conversation that got shorter or stopped ending
 * by itself is often the change. Undefined when neither side is a conversation.
 */
export function turnsChange(base: ConversationRecord | undefined, head: ConversationRecord | undefined): string | undefined {
  if (base === undefined && head === undefined) return undefined;
  const side = (conversation: ConversationRecord | undefined): string => (conversation === undefined ? '—' : turnsNote(userTurns(conversation.turns), conversation.endedBy));
  return `${side(base)} → ${side(head)}`;
}
