import { createAgentRunner, type AgentFunction, type AgentRunner } from '../agent/index.js';
import { loadPrompt, type LoadedPrompt } from '../prompt/index.js';
import type { RunListener } from './events.js';
import type { ModelCaller } from './model-caller.js';
import type { RunExperimentOptions } from './options.js';

/** The row runner of a config agent, on the run's cache, providers and breaker. */
export function agentRunner(agent: { name: string; fn: AgentFunction }, options: RunExperimentOptions, prompt: LoadedPrompt, caller: ModelCaller): Promise<AgentRunner> {
  const { project, config } = options;
  const emit: RunListener = options.onEvent ?? (() => {});
  return createAgentRunner({
    name: agent.name,
    fn: agent.fn,
    transport: caller.transport,
    prompt,
    modelName: caller.modelName,
    tools: config.tools ?? {},
    projectRoot: project.root,
    loadPrompt: (path) => loadPrompt(path, { project, filters: config.filters }),
    warn: (message) => emit({ type: 'warning', message }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
