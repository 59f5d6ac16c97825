import type { ToolCallRecord } from './types.js';

/** The parts of a step's content that matter for tool calls (structurally, the SDK's parts). */
interface StepPart {
  type: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  error?: unknown;
}

/**
 * Every tool call of every step, in order, with its result or error, so scorers can check
 * what the model did and not only what it said.
 */
export function collectToolCalls(steps: ReadonlyArray<{ content: ReadonlyArray<StepPart> }>): ToolCallRecord[] {
  const records: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  for (const step of steps) {
    for (const part of step.content) {
      if (part.type === 'tool-call') {
        const record: ToolCallRecord = { name: part.toolName ?? '', args: part.input };
        records.push(record);
        if (part.toolCallId !== undefined) byId.set(part.toolCallId, record);
      } else if (part.type === 'tool-result' && part.toolCallId !== undefined) {
        const record = byId.get(part.toolCallId);
        if (record !== undefined) record.result = part.output;
      } else if (part.type === 'tool-error' && part.toolCallId !== undefined) {
        const record = byId.get(part.toolCallId);
        if (record !== undefined) record.error = part.error instanceof Error ? part.error.message : String(part.error);
      }
    }
  }
  return records;
}
