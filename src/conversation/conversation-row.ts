import type { AgentRunner } from '../agent/index.js';
import type { AgentRowRecord } from '../agent/index.js';
import type { DatasetRow } from '../dataset/types.js';
import { readRowTimeout } from '../dataset/index.js';
import { requestFromRendered } from '../model/request-from-rendered.js';
import type { ModelRequest, ModelResponse, TokenUsage, ToolCallRecord } from '../model/types.js';
import { AgentTurns } from './agent-turns.js';
import type { ChatMessage, RenderedPrompt } from '../prompt/types.js';
import { runConversation, type ConversationOutcome, type ConversationParties } from './run-conversation.js';
import { addUsage, answerText, zeroUsage, type TurnAnswer } from './turn-answer.js';
import type { ConversationSettings, TranscriptMessage } from './types.js';

/** What a conversation row needs of the row pipeline (see experiment/row-pipeline.ts). */
export interface ConversationCalls {
  toRequest: (rendered: RenderedPrompt) => ModelRequest;
  call: (request: ModelRequest, repeat: number, signal: AbortSignal, timeoutMs?: number, onLive?: () => void) => Promise<ModelResponse>;
  /** The per-call timeout of rows without their own `timeout_seconds`. */
  timeoutMs?: number;
  agent?: AgentRunner;
}

/** What the row's result gets from its conversation: the system under test's part, summed. */
export interface ConversationRowFields {
  outcome: ConversationOutcome;
  output: string;
  usage: TokenUsage;
  costUsd?: number;
  latencyMs: number;
  /** Every answer of the system under test (and of the simulator) came from the cache. */
  cached: boolean;
  retries: number;
  /** With an agent as the system under test: what it did over the turns (see AgentTurns). */
  agent?: AgentRowRecord;
  toolCalls?: ToolCallRecord[];
}

/**
 * Runs a row's conversation through the pipeline's model caller (or its agent): the prompt's
 * rendered messages, then the conversation so far, on every turn; the simulator's own rendered
 * messages (with `props.scenario`), then the conversation with roles swapped. A row's own
 * `timeout_seconds` covers the whole conversation: each call gets what is left of it.
 */
export async function conversationRow(
  calls: ConversationCalls,
  settings: ConversationSettings | undefined,
  rendered: RenderedPrompt,
  row: DatasetRow,
  repeat: number,
  signal: AbortSignal,
  onLive?: () => void,
  now: () => number = Date.now,
): Promise<ConversationRowFields> {
  const own = readRowTimeout(row.metadata);
  const deadline = 'seconds' in own && own.seconds !== undefined ? now() + Math.round(own.seconds * 1000) : undefined;
  const timeout = (): number | undefined => (deadline === undefined ? calls.timeoutMs : Math.max(1, deadline - now()));
  const base = rendered.messages ?? [];
  const fromModel = (response: ModelResponse): TurnAnswer => ({
    content: answerText(response.output),
    usage: response.usage,
    ...(response.costUsd === undefined ? {} : { costUsd: response.costUsd }),
    ...(response.batch ? {} : { latencyMs: response.latencyMs }),
    cached: response.cached,
    retries: response.retries,
  });
  // Retries and cost are per answer, not kept on the turn: summed as the answers come.
  const spent = { costUsd: 0 as number | undefined, retries: 0 };
  const tally = (answer: TurnAnswer): TurnAnswer => {
    spent.retries += answer.retries;
    if (!answer.cached) spent.costUsd = spent.costUsd === undefined || answer.costUsd === undefined ? undefined : spent.costUsd + answer.costUsd;
    return answer;
  };
  const agent = calls.agent;
  const agentTurns = new AgentTurns();
  const parties: ConversationParties = {
    answer: agent
      ? async (history) => {
          const ran = await agent.runRow(row, repeat, signal, timeout() ?? 60_000, onLive, [...history]);
          agentTurns.add(ran);
          const answer: TurnAnswer = { content: answerText(ran.output), usage: ran.usage, latencyMs: ran.latencyMs, cached: ran.cached, retries: ran.retries };
          if (ran.costUsd !== undefined) answer.costUsd = ran.costUsd;
          return tally(answer);
        }
      : async (history) => tally(fromModel(await calls.call(calls.toRequest({ ...rendered, messages: [...base, ...asChat(history)] } as RenderedPrompt), repeat, signal, timeout(), onLive))),
  };
  const simulator = settings?.simulator;
  if (simulator !== undefined) {
    const scenario = isRecord(row.metadata['scenario']) ? row.metadata['scenario'] : {};
    const own = simulator.render({ ...scenario, scenario });
    parties.simulate = async (swapped) => {
      const request = requestFromRendered({ ...own, messages: [...(own.messages ?? []), ...asChat(swapped)] } as RenderedPrompt);
      return fromModel(await calls.call(request, repeat, signal, timeout(), onLive));
    };
  }
  const outcome = await runConversation(row, settings, parties);
  const usage = zeroUsage();
  let latencyMs = 0;
  let made = 0;
  let cachedTurns = 0;
  let output = '';
  for (const turn of outcome.turns) {
    if (turn.given) continue;
    made += 1;
    if (turn.cached) cachedTurns += 1;
    if (turn.simulated) continue;
    addUsage(usage, turn.usage);
    latencyMs += turn.latencyMs ?? 0;
    output = turn.content;
  }
  // Replayed when every answer came from the cache; one that needed no call (its given turns
  // already reached max_turns) made none now either; one that failed before any answer was not.
  const cached = made > 0 ? cachedTurns === made : outcome.error === undefined;
  const costUsd = cached ? undefined : spent.costUsd;
  const record = agentTurns.agent();
  return {
    outcome,
    output,
    usage,
    ...(costUsd === undefined ? {} : { costUsd }),
    latencyMs,
    cached,
    retries: spent.retries,
    ...(record === undefined ? {} : { agent: record, toolCalls: agentTurns.toolCalls() }),
  };
}

function asChat(history: readonly TranscriptMessage[]): ChatMessage[] {
  return history.map((message) => ({ role: message.role, content: message.content }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

