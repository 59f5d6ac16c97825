import type { TokenUsage } from '../model/types.js';
import { addUsage, zeroUsage } from './turn-answer.js';
import type { ConversationTurn } from './types.js';

/**
 * The tokens of the system under test's turns answered now: what a run pays for a
 * conversation. A row keeps the conversation's tokens whatever answered each turn (as a cached
 * single-turn row keeps its call's), but a turn from the response cache (a rerun going further,
 * `--resume` restarting from cached turns) cost nothing now, as a cached row costs nothing. The
 * simulator's turns are counted apart (`simulator`), given turns were never called.
 */
export function paidUsage(turns: readonly ConversationTurn[]): TokenUsage {
  const usage = zeroUsage();
  for (const turn of turns) if (!turn.given && !turn.simulated && turn.cached !== true) addUsage(usage, turn.usage);
  return usage;
}
