import { collectToolCalls } from '../model/tool-calls.js';
import type { ToolCallRecord } from '../model/types.js';

/** What a row takes from an agent's return value. */
export interface AgentAnswer {
  output: string | Record<string, unknown> | unknown[];
  /** Tool calls the agent returned itself (`{ output, toolCalls }`): they are the row's. */
  toolCalls?: ToolCallRecord[];
  /** Tool calls in an AI SDK result's steps: the row's when none were recorded through the context. */
  stepToolCalls?: ToolCallRecord[];
  /** Steps of an AI SDK result. */
  steps?: number;
  finishReason?: string;
}

type Step = { content: ReadonlyArray<{ type: string }> };

/**
 * An AI SDK result (`generateText`/`streamText`: text or output, steps; `generateObject`: object),
 * a `{ output, toolCalls?, messages? }` object, or a plain string or object.
 */
export async function agentAnswer(value: unknown): Promise<AgentAnswer> {
  if (value === null || typeof value !== 'object') return { output: value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value) };
  const record = value as Record<string, unknown>;
  // streamText's fields are promises; awaiting a plain value is harmless.
  const steps = isSdkResult(record) ? ((await record.steps) as Step[] | undefined) : undefined;
  if (steps !== undefined && Array.isArray(steps)) {
    const finishReason = await record.finishReason;
    const structured = await sdkOutput(record);
    const text = await record.text;
    return {
      output: structured ?? (typeof text === 'string' ? text : ''),
      stepToolCalls: collectToolCalls(steps as Parameters<typeof collectToolCalls>[0]),
      steps: steps.length,
      ...(typeof finishReason === 'string' ? { finishReason } : {}),
    };
  }
  if ('object' in record && 'finishReason' in record && 'usage' in record) {
    // generateObject's result.
    return { output: toOutput(record.object), ...(typeof record.finishReason === 'string' ? { finishReason: record.finishReason } : {}) };
  }
  if ('output' in record) {
    const toolCalls = Array.isArray(record.toolCalls) ? (record.toolCalls as ToolCallRecord[]) : undefined;
    return { output: toOutput(record.output), ...(toolCalls === undefined ? {} : { toolCalls }) };
  }
  return { output: toOutput(value) };
}

function isSdkResult(record: Record<string, unknown>): boolean {
  return 'steps' in record && ('text' in record || 'finishReason' in record);
}

/** `output` of a result made with `Output.object(...)`; reading it on a text result throws. */
async function sdkOutput(record: Record<string, unknown>): Promise<Record<string, unknown> | unknown[] | undefined> {
  try {
    const output: unknown = await record.output;
    return output !== null && typeof output === 'object' ? (output as Record<string, unknown> | unknown[]) : undefined;
  } catch {
    return undefined;
  }
}

function toOutput(value: unknown): AgentAnswer['output'] {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return value as Record<string, unknown> | unknown[];
  return value === undefined || value === null ? '' : String(value);
}
