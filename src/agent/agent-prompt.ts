import { callSettings } from '../model/index.js';
import { toModelMessages } from '../model/model-messages.js';
import type { LoadedPrompt, ModelSettings } from '../prompt/types.js';
import type { AgentPrompt, AgentRenderedPrompt } from './types.js';

/** A loaded text or object prompt as an agent sees it; `modelName` overrides its `model_name` (`--model`). */
export function agentPrompt(loaded: LoadedPrompt, modelName?: string): AgentPrompt {
  const config: ModelSettings | undefined = loaded.frontmatter.text_config ?? loaded.frontmatter.object_config;
  return {
    name: loaded.name,
    path: loaded.path,
    modelName: modelName ?? config?.model_name ?? '',
    toolNames: [...(loaded.frontmatter.text_config?.tools ?? [])],
    loaded,
    render(props): AgentRenderedPrompt {
      const rendered = loaded.render(props);
      return {
        messages: toModelMessages(rendered.messages ?? []),
        allowSystemInMessages: true,
        ...(config === undefined ? {} : callSettings(config)),
      };
    },
  };
}
