import type { TokenUsage } from '../model/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import type { ScoredEval } from '../scoring/types.js';

/** `test_settings.conversation` with its defaults applied and its simulator loaded. */
export interface ConversationSettings {
  /** The simulated user; absent for static multi-turn rows (history in `messages`). */
  simulator?: LoadedPrompt;
  /** @default 6 */
  maxTurns: number;
  /** @default "###STOP###" */
  stop: string;
  /** @default "user" */
  opener: 'user' | 'assistant';
}

/** One message of a conversation, as the prompt under test sees it. */
export interface TranscriptMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** How a conversation ended. */
export type ConversationEnd = 'stop' | 'max_turns' | 'error';

/** One turn of a stored conversation. */
export interface ConversationTurn {
  /** Zero-based position in `messages`. */
  index: number;
  role: 'user' | 'assistant';
  content: string;
  /** Said by the simulated user (its prompt's model). */
  simulated?: true;
  /** Given by the dataset row's `messages`, not generated in this run. */
  given?: true;
  /** The turn evals' results on this assistant turn. */
  evals?: Record<string, ScoredEval>;
  usage?: TokenUsage;
  latencyMs?: number;
  cached?: boolean;
}

/** What a row's JSON carries about its conversation. */
export interface ConversationRecord {
  messages: TranscriptMessage[];
  turns: ConversationTurn[];
  endedBy: ConversationEnd;
}

/** What the simulated user's calls spent on a row, or over a run (counted apart, like the judge's). */
export interface SimulatorSpend {
  /** Simulator answers received, cached ones included. */
  calls: number;
  usage: TokenUsage;
  /** USD of the calls made now; absent when a price is unknown. */
  costUsd?: number;
}

export const DEFAULT_MAX_TURNS = 6;
export const DEFAULT_STOP = '###STOP###';
