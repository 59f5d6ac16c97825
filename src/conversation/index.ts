export type { ConversationEnd, ConversationRecord, ConversationSettings, ConversationTurn, SimulatorSpend, TranscriptMessage } from './types.js';
export { DEFAULT_MAX_TURNS, DEFAULT_STOP } from './types.js';
export { conversationSettings } from './settings.js';
export { conversationRowCheck, isConversationRow, rowMessages } from './row-check.js';
export { runConversation, swapRole, type ConversationOutcome, type ConversationParties } from './run-conversation.js';
export { conversationRow, type ConversationCalls, type ConversationRowFields } from './conversation-row.js';
export { scoreTurns, evalTurn } from './score-turns.js';
export { summarizeTurns } from './summarize-turns.js';
export { userTurns } from './user-turns.js';
