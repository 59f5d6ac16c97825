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

  static timedOut(agent: string, timeoutMs: number): AgentError {
    return new AgentError('AGENT_TIMEOUT', `agent "${agent}" timed out after ${formatSeconds(timeoutMs)}`);
  }
}
