import type { AgentRowOutcome, AgentRowRecord } from '../agent/index.js';
import type { ToolCallRecord } from '../model/types.js';

/**
 * What an agent in code did over a conversation's turns, as one agent row: its model calls,
 * steps and tool calls summed (the calls and tool calls in turn order), its own time summed over
 * the turns that timed it, and its peak heap growth the highest of any turn's (each turn is
 * sampled from its own start; approximate when any turn's was). So `max_steps`,
 * `max_model_calls`, `max_memory_mb` and `tool_calls` judge the conversation, not nothing.
 */
export class AgentTurns {
  private record: AgentRowRecord | undefined;
  private readonly tools: ToolCallRecord[] = [];

  add(ran: AgentRowOutcome): void {
    this.tools.push(...ran.toolCalls);
    const turn = ran.agent;
    const sum = this.record;
    if (sum === undefined) {
      this.record = { ...turn, calls: [...turn.calls] };
      return;
    }
    sum.calls.push(...turn.calls);
    sum.modelCalls += turn.modelCalls;
    sum.steps += turn.steps;
    sum.toolCalls += turn.toolCalls;
    if (turn.agentMs !== undefined) sum.agentMs = (sum.agentMs ?? 0) + turn.agentMs;
    if (turn.peakMemoryMb !== undefined) sum.peakMemoryMb = Math.max(sum.peakMemoryMb ?? 0, turn.peakMemoryMb);
    if (turn.memoryApproximate) sum.memoryApproximate = true;
  }

  /** The conversation's agent record; undefined when no turn was answered by the agent. */
  agent(): AgentRowRecord | undefined {
    return this.record;
  }

  toolCalls(): ToolCallRecord[] {
    return this.tools;
  }
}
