import { relative } from 'node:path';
import { readDataset, resolveDatasetPath } from '../dataset/index.js';
import { AgentmarkError, isAgentmarkError, PromptSyntaxError } from '../errors/index.js';
import { checkTools } from '../model/index.js';
import { resolveAgent } from '../agent/index.js';
import { loadConfig, projectScope, type LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import { loadPrompt, unknownKeysOfFile, type PromptWarning } from '../prompt/index.js';
import { bindEvals, type BindContext, type BoundEval } from '../scoring/index.js';
import { RowEvalCollector } from './row-eval-binder.js';
import { clientFailureOf } from './client-failure.js';

export interface ValidationReport {
  errors: AgentmarkError[];
  warnings: string[];
  prompts: number;
  datasets: number;
  rows: number;
}

/**
 * Everything `validate` checks, gathering every problem instead of stopping at the first:
 * the config, each prompt (load, render with its test props, eval binding, tools) and each
 * dataset it names (every row, against the prompt's input_schema).
 */
export async function validateProject(project: Project, promptPaths: string[]): Promise<ValidationReport> {
  const report: ValidationReport = { errors: [], warnings: [], prompts: 0, datasets: 0, rows: 0 };
  const collect = (error: unknown): void => {
    if (isAgentmarkError(error)) report.errors.push(error);
    else throw error;
  };
  let config: LoadedConfig | undefined;
  try {
    config = await loadConfig(project, { client: true, fsCache: true });
    report.warnings.push(...(config.warnings ?? []));
  } catch (error) {
    collect(error);
  }
  const datasetsSeen = new Set<string>();
  for (const path of promptPaths) {
    report.prompts++;
    let prompt;
    try {
      prompt = await loadPrompt(path, { project, filters: config?.filters });
    } catch (error) {
      collect(error);
      for (const warning of await unknownKeysOfFile(path)) if (warning.likelyTypo !== undefined) report.errors.push(typoError(warning));
      continue;
    }
    for (const warning of prompt.warnings) {
      if (warning.likelyTypo !== undefined) {
        report.errors.push(typoError(warning));
        continue;
      }
      const where = [relative(project.root, warning.file), warning.line, warning.column].filter((p) => p !== undefined).join(':');
      report.warnings.push(`${where}: ${warning.message}`);
    }
    try {
      prompt.render(prompt.testSettings.props ?? {});
    } catch (error) {
      collect(error);
    }
    let bindContext: BindContext | undefined;
    let promptEvals: BoundEval[] = [];
    if (config) {
      try {
        checkTools(prompt.frontmatter.text_config?.tools ?? [], config.tools ?? {}, prompt.path);
        resolveAgent(config.agents, undefined, prompt);
        bindContext = {
          scores: project.scores,
          userScorers: config.scorers ?? {},
          promptSchema: prompt.frontmatter.object_config?.schema,
          // Binding checks a judge eval's options and prompt; validate never calls the judge.
          judge: () => Promise.reject(new Error('validate does not call judge models')),
          embed: () => Promise.reject(new Error('validate does not call embedding models')),
          projectRoot: project.root,
          promptPath: prompt.path,
          pathScope: projectScope(project),
          tools: config.tools,
          promptTools: prompt.frontmatter.text_config?.tools,
          evalLocation: (index) => prompt.locate(['test_settings', 'evals', index]),
          projectFile: project.configPath,
          clientFailure: clientFailureOf(config),
        };
        const bound = await bindEvals(prompt.testSettings.evals ?? [], bindContext);
        promptEvals = bound.evals;
        report.warnings.push(...bound.warnings);
      } catch (error) {
        collect(error);
      }
    }
    const dataset = prompt.testSettings.dataset;
    if (!dataset) continue;
    let datasetPath: string;
    try {
      datasetPath = resolveDatasetPath(dataset, prompt.path, project, prompt.locate(['test_settings', 'dataset']));
    } catch (error) {
      collect(error);
      continue;
    }
    const key = `${datasetPath}\0${JSON.stringify(prompt.inputSchema ?? null)}`;
    if (datasetsSeen.has(key)) continue;
    datasetsSeen.add(key);
    report.datasets++;
    const rowEvals = new RowEvalCollector();
    try {
      for await (const row of readDataset(datasetPath, { inputSchema: prompt.inputSchema, onError: collect })) {
        report.rows++;
        rowEvals.check(row);
      }
    } catch (error) {
      collect(error);
    }
    // The evals rows add are bound as a run binds them: an unknown name or a bad option is an error at its row.
    if (bindContext !== undefined && !rowEvals.empty) {
      try {
        await (await rowEvals.bind(promptEvals, bindContext, { path: datasetPath, file: relative(project.root, datasetPath) })).close();
      } catch (error) {
        collect(error);
      }
    }
  }
  return report;
}

/** A likely typo of a known frontmatter key has no effect on a run, which is never what was meant. */
function typoError(warning: PromptWarning): PromptSyntaxError {
  return new PromptSyntaxError('PROMPT_UNKNOWN_KEY', warning.message.replace(/; did you mean .*$/, ''), {
    location: { file: warning.file, ...(warning.line === undefined ? {} : { line: warning.line, column: warning.column ?? 1 }) },
    hint: `did you mean "${warning.likelyTypo}"? (AgentMark ignores unknown keys, so as written the setting has no effect; a run only warns)`,
  });
}
