import type { RowResult } from '../experiment/types.js';

/**
 * `[6t stop]`: a conversation row's turns and how it ended (`stop`, `max`, `error`), short enough
 * to survive the result cell's cut at 80 columns.
 */
export function conversationNote(row: RowResult): string | undefined {
  const conversation = row.conversation;
  if (conversation === undefined) return undefined;
  return `[${conversation.turns.length}t ${conversation.endedBy === 'max_turns' ? 'max' : conversation.endedBy}]`;
}
