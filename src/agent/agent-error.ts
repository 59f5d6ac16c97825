import { AgentmarkError, isAgentmarkError } from '../errors/index.js';
import { formatSeconds } from '../format-seconds.js';

/**
 * A row's agent failed: it threw (`AGENT_FAILED`, or the code of one of our errors it let through,
 * e.g. `MODEL_CACHE_MISS`), or ran past its row's timeout (`AGENT_TIMEOUT`). The message names the agent.
 */
export class AgentError extends AgentmarkError {
  constructor(
    readonly code: string,
    message: string,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
  }

  static threw(agent: string, error: unknown): AgentError {
    const message = error instanceof Error ? error.message : String(error);
    const hint = isAgentmarkError(error) ? error.hint : undefined;
    return new AgentError(isAgentmarkError(error) ? error.code : 'AGENT_FAILED', `agent "${agent}" failed: ${message}`, {
      ...(hint === undefined ? {} : { hint }),
      cause: error,
    });
  }

  /** Something the agent code left running failed outside its own promise (background-errors.ts). */
  static background(agent: string, error: unknown, kind: 'rejection' | 'exception'): AgentError {
    const where = kind === 'rejection' ? 'a promise rejected and never awaited' : 'an error thrown outside it (in a timer or a callback)';
    return new AgentError('AGENT_FAILED', `agent "${agent}" failed: ${where} while its row ran: ${firstLine(error)}`, { cause: error });
  }

  /** The agent's output (or tool calls) cannot be stored: a circular object, a toJSON that throws, a BigInt. */
  static notJson(agent: string, error: unknown): AgentError {
    return new AgentError('AGENT_FAILED', `agent "${agent}" failed: its output cannot be stored as JSON: ${firstLine(error)}`, {
      hint: 'return a string, or an object of plain JSON values',
      cause: error,
    });
  }

  static timedOut(agent: string, timeoutMs: number): AgentError {
    return new AgentError('AGENT_TIMEOUT', `agent "${agent}" timed out after ${formatSeconds(timeoutMs)}`);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
