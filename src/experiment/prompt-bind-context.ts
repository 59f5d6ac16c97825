import { projectScope, type LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/index.js';
import type { BindContext } from '../scoring/index.js';
import { clientFailureOf } from './client-failure.js';

/**
 * What binding a prompt's evals needs from the project, its config and the prompt itself: the
 * same for a run and for `validate` (and the language server), so both bind, and refuse, alike.
 * A run adds its model calls (`judge`, `embed`) and its worker settings.
 */
export function promptBindContext(project: Project, config: LoadedConfig, prompt: LoadedPrompt): BindContext {
  return {
    scores: project.scores,
    userScorers: config.scorers ?? {},
    promptSchema: prompt.frontmatter.object_config?.schema,
    projectRoot: project.root,
    promptPath: prompt.path,
    pathScope: projectScope(project),
    tools: config.tools,
    promptTools: prompt.frontmatter.text_config?.tools,
    evalLocation: (index) => prompt.locate(['test_settings', 'evals', index]),
    projectFile: project.configPath,
    clientFailure: clientFailureOf(config),
  };
}
