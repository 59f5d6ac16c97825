export { createAgentRunner, type AgentRunner, type AgentRowOutcome, type AgentSetup } from './run-agent-row.js';
export { resolveAgent } from './resolve-agent.js';
export { AgentError } from './agent-error.js';
export type { AgentTransport } from './transport.js';
export type {
  AgentCallRecord,
  AgentContext,
  AgentFunction,
  AgentOutput,
  AgentPrompt,
  AgentRenderedPrompt,
  AgentRow,
  AgentRowRecord,
} from './types.js';
