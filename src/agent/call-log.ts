import type { ToolCallRecord } from '../model/types.js';
import type { AgentCallRecord } from './types.js';

/** A content part of a model answer or prompt, as far as tool calls go (structurally, the SDK's parts). */
interface ToolPart {
  type: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
}

/**
 * What one agent row did through its context: the model calls, the tool calls (as the models
 * asked for them and as the context's tools ran them, one record per call, in order) and the time
 * a model call was in flight. Sub-agents run through the same context, so their calls land here too.
 */
export class CallLog {
  readonly calls: AgentCallRecord[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly #byId = new Map<string, ToolCallRecord>();
  #inFlight = 0;
  #since = 0;
  #modelMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Time with at least one model call in flight (overlapping calls count once). */
  get modelMs(): number {
    return this.#modelMs + (this.#inFlight > 0 ? this.now() - this.#since : 0);
  }

  started(): void {
    if (this.#inFlight === 0) this.#since = this.now();
    this.#inFlight += 1;
  }

  ended(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) this.#modelMs += this.now() - this.#since;
  }

  addCall(call: AgentCallRecord): void {
    this.calls.push(call);
  }

  /** The tool calls a model answered with; results come later (a tool's run, or the next prompt). */
  addAnswer(content: readonly ToolPart[]): void {
    for (const part of content) {
      if (part.type !== 'tool-call') continue;
      if (part.toolCallId !== undefined && this.#byId.has(part.toolCallId)) continue;
      const record: ToolCallRecord = { name: part.toolName ?? '', args: parseInput(part.input) };
      this.toolCalls.push(record);
      if (part.toolCallId !== undefined) this.#byId.set(part.toolCallId, record);
    }
  }

  /** Tool results a prompt sends back (tools the agent ran itself, outside `ctx.tools`). */
  addPrompt(messages: ReadonlyArray<{ role: string; content: unknown }>): void {
    for (const message of messages) {
      if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
      for (const part of message.content as ToolPart[]) {
        if (part.type !== 'tool-result' || part.toolCallId === undefined) continue;
        const record = this.#byId.get(part.toolCallId);
        if (record !== undefined && !('result' in record)) record.result = resultValue(part.output);
      }
    }
  }

  /** A run of one of the context's tools: the model's call when it asked for it, else a call of the agent's own. */
  addToolRun(name: string, args: unknown, toolCallId: string | undefined, outcome: { result: unknown } | { error: string }): void {
    let record = toolCallId === undefined ? undefined : this.#byId.get(toolCallId);
    if (record === undefined) {
      record = { name, args };
      this.toolCalls.push(record);
      if (toolCallId !== undefined) this.#byId.set(toolCallId, record);
    }
    if ('error' in outcome) record.error = outcome.error;
    else record.result = outcome.result;
  }
}

/** The provider gives tool input as JSON text; scorers see the parsed arguments, as from generateText. */
function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** A prompt's tool result part holds `{ type: 'json' | 'text', value }`. */
function resultValue(output: unknown): unknown {
  if (output !== null && typeof output === 'object' && 'value' in output) return (output as { value: unknown }).value;
  return output;
}
